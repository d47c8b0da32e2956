// Loaded by jsclients.Run with `node --import`: lets a script anywhere (a
// test's testdata/) import the packages installed in this folder.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
