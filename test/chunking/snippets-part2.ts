import type { Snippet } from './snippets.js'

/** Snippets for the second half of the languages, in registry order. */
export const SNIPPETS_PART2: Record<string, Snippet> = {
  scala: {
    path: 'src/Greeter.scala',
    content: `package app
import scala.util._
/** Greeter. */
class Greeter(name: String) {
  /** Greets. */
  def greet(who: String): String = "hi " + who
}
object Main { def main(args: Array[String]): Unit = () }
trait Shape { def area: Double }
case class Pt(x: Int)
enum Color { case Red }
def add(a: Int, b: Int): Int = a + b
type ID = String
val top = 1
`,
  },
  lua: {
    path: 'lua/m.lua',
    content: `local json = require("json")
-- Adds.
local function add(a, b) return a + b end
function M.greet(who) return "hi " .. who end
function Greeter:say(x) return x end
function plain() end
local mul = function(a, b) return a * b end
M.div = function(a, b) return a / b end
return M
`,
  },
  elixir: {
    path: 'lib/greeter.ex',
    content: `defmodule Greeter do
  @moduledoc "Greets."
  @doc "Says hi."
  def greet(who), do: "hi " <> who
  defp secret(x) do
    x
  end
  defmacro m(x), do: x
  defstruct [:name]
end
defprotocol Shape do
  def area(s)
end
defimpl Shape, for: Pt do
  def area(_), do: 0
end
`,
  },
  elm: {
    path: 'src/Main.elm',
    content: `module Main exposing (..)

import Html exposing (text)

{-| Adds numbers. -}
add : Int -> Int -> Int
add a b =
    a + b

type Color = Red | Green

type alias Point = { x : Int }

port sendMsg : String -> Cmd msg

main = text "hi"
`,
  },
  ocaml: {
    path: 'lib/geo.ml',
    content: `open Printf
(** Adds. *)
let add a b = a + b
let rec fact n = if n = 0 then 1 else n * fact (n - 1)
type color = Red | Green
module Geo = struct
  (** Area of a square. *)
  let area x = x * x

  let perimeter x = 4 * x
end
module type SHAPE = sig val area : int -> int end
class greeter = object method greet = "hi" end
exception Oops
let () = print_endline "x"
`,
  },
  dart: {
    path: 'lib/greeter.dart',
    content: `import 'dart:math';
/// Greeter.
class Greeter {
  /// Greets.
  String greet(String who) => 'hi ' + who;
  Greeter();
}
int add(int a, int b) { return a + b; }
enum Color { red }
mixin Loud { void shout() {} }
extension on int { int get twice => this * 2; }
typedef IntFn = int Function(int);
`,
  },
  zig: {
    path: 'src/main.zig',
    content: `const std = @import("std");
/// Adds.
pub fn add(a: i32, b: i32) i32 {
    return a + b;
}
const Point = struct {
    x: i32,
    pub fn move(self: *Point) void { _ = self; }
};
const Color = enum { red };
test "add" { try std.testing.expect(add(1, 2) == 3); }
`,
  },
  solidity: {
    path: 'contracts/Token.sol',
    content: `pragma solidity ^0.8.0;
import "./x.sol";
/// @title Token
contract Token is Base {
    uint256 public total;
    event Sent(address to);
    /// @notice Sends.
    function send(address to) public { emit Sent(to); }
    modifier onlyOwner() { _; }
    constructor() {}
    struct Acc { uint x; }
}
interface IToken { function send(address to) external; }
library Math {
    function add(uint a, uint b) internal pure returns (uint) { return a + b; }
}
`,
  },
  bash: {
    path: 'scripts/build.sh',
    content: `#!/bin/bash
set -e
# Greets.
greet() {
  echo "hi $1"
}
function build {
  make
}
greet world
`,
  },
  css: {
    path: 'styles/app.css',
    content: `@import url("x.css");
/* Buttons */
.btn, .button { color: red; }
#main > p { margin: 0; }
@media (max-width: 600px) { .btn { color: blue; } }
@keyframes spin { from { opacity: 0; } }
:root { --x: 1; }
`,
  },
  html: {
    path: 'public/index.html',
    content: `<!DOCTYPE html>
<html>
<head><title>x</title><style>p{}</style></head>
<body>
  <div id="app" class="c">
    <p>Hello</p>
  </div>
  <script>function f() {}</script>
</body>
</html>
`,
  },
  vue: {
    path: 'src/App.vue',
    content: `<template>
  <div>{{ msg }}</div>
</template>

<script setup lang="ts">
const msg = 'hi'
function add(a: number, b: number) { return a + b }
</script>

<style scoped>
div { color: red; }
</style>
`,
  },
  json: {
    path: 'package.json',
    content: `{
  "name": "brain",
  "version": "1.0.0",
  "scripts": {
    "build": "tsc -p tsconfig.json",
    "test": "tap --disable-coverage"
  },
  "list": [1, 2]
}
`,
  },
  yaml: {
    path: 'config.yaml',
    content: `# config
name: brain
server:
  port: 8080
  host: localhost
  timeout: 30s
  max_body_bytes: 1048576
  log_level: info
items:
  - a
  - b
---
second: doc
`,
  },
  toml: {
    path: 'Cargo.toml',
    content: `title = "x"
[package]
name = "brain"
version = "1.0"
edition = "2021"
description = "A personal knowledge brain"
license = "MIT"
[dependencies]
serde = "1"
[[bin]]
name = "a"
[a.b]
c = 1
`,
  },
}
