/**
 * The entry point: draws the app into `#app` (the page's only element; the script is a
 * module from this origin, as the server's Content-Security-Policy requires).
 */
import { render } from "preact";
import { App } from "./app.js";
import "./app.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
