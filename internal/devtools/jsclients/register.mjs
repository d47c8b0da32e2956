// Loaded by jsclients.Run with `node --import`: lets a script anywhere (a
// test's testdata/) import the packages installed in this folder.
import { register } from "node:module";
import { webcrypto } from "node:crypto";

register("./hooks.mjs", import.meta.url);

// Node.js 18 (Debian 12's, which install.sh falls back on) has no global
// Web Crypto in scripts, and Mesh's libsodium will not load without it.
globalThis.crypto ??= webcrypto;
