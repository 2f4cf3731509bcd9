import { render } from "preact";
import { App } from "./app";
import { registerServiceWorker } from "./offline/service-worker";
import "./styles.css";

const root = document.getElementById("root");
if (root) render(<App />, root);
registerServiceWorker();
