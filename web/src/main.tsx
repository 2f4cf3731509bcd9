import { render } from "preact";

function App() {
  return <h1>Warehouse</h1>;
}

render(<App />, document.getElementById("root")!);
