// Vite's `?raw` imports: a file's text, for tests that check committed configuration.
declare module "*?raw" {
  const text: string;
  export default text;
}
