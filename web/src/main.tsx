import { render } from "preact";

function App() {
  return <h1>Warehouse</h1>;
}

const root = document.getElementById("root");
if (root) render(<App />, root);
