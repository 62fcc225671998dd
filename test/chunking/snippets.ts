/**
 * A small, real snippet per language, and the symbols chunking must find in it.
 */
import type { CodeLanguage } from '../../src/chunking/index.js'

export interface Snippet {
  path: string
  content: string
}

/** [symbolType, symbolNameQualified, docComment?] */
export type ExpectedSymbol = [string, string, string?]

export const SNIPPETS: Record<CodeLanguage, Snippet> = {
  typescript: {
    path: "src/app.ts",
    content: `import { x } from './x.js'

/** Adds numbers. */
export function add(a: number, b: number): number {
  return a + b
}

export interface Shape { area(): number }
export type Id = string | number
enum Color { Red, Green }
export const double = (n: number) => n * 2
const LIMIT = 5
export default class Greeter<T> extends Base implements Shape {
  private name = 'x'
  /** Say hi. */
  greet(who: string): string { return 'hi ' + who }
  area() { return 1 }
}
namespace NS { export function inner() {} }
declare module 'foo' { export const y: number }
abstract class Abs { abstract m(): void }
export { add as plus }
export * from './y.js'
`,
  },
  tsx: {
    path: "src/App.tsx",
    content: `import React from 'react'
export function App({ name }: { name: string }) {
  return <div className="x">{name}</div>
}
const Button = () => <button>ok</button>
`,
  },
  javascript: {
    path: "lib/util.js",
    content: `const fs = require('fs')
/** Adds. */
function add(a, b) { return a + b }
class Greeter {
  greet(x) {
    return x
  }
  static make() {}
}
const mul = function (a, b) { return a * b }
export const arrow = async (x) => x
module.exports = { add }
export default function () {}
function* gen() { yield 1 }
`,
  },
  python: {
    path: "app/greeter.py",
    content: `import os

# helper comment
def add(a, b):
    """Add two numbers."""
    return a + b

@dataclass
class Greeter(Base):
    """A greeter."""
    def greet(self, who):
        """Say hi."""
        return "hi " + who

    async def later(self): pass

X = 5
if __name__ == "__main__":
    add(1, 2)
`,
  },
  ruby: {
    path: "lib/util.rb",
    content: `require 'json'
# A greeter.
module Util
  class Greeter < Base
    # Say hi.
    def greet(who)
      "hi #{who}"
    end
    def self.make; end
  end
end
def top(a)
  a
end
`,
  },
  go: {
    path: "cmd/main.go",
    content: `package main

import "fmt"

// Add adds.
func Add(a, b int) int { return a + b }

type Point struct { X, Y int }
type Shape interface { Area() float64 }
type ID = string
func (p *Point) Move(dx int) { p.X += dx }
const Pi = 3.14
var g = 1
`,
  },
  rust: {
    path: "src/lib.rs",
    content: `use std::fmt;
/// A point.
#[derive(Debug)]
pub struct Point { x: i32 }
enum Color { Red }
pub trait Shape { fn area(&self) -> f64; }
impl Shape for Point {
    /// Area.
    fn area(&self) -> f64 { 0.0 }
}
impl Point { pub fn new() -> Self { Point { x: 0 } } }
pub fn add(a: i32, b: i32) -> i32 { a + b }
mod inner { pub fn f() {} }
type Alias = i32;
macro_rules! m { () => {} }
const C: i32 = 1;
`,
  },
  java: {
    path: "src/Greeter.java",
    content: `package a.b;
import java.util.List;
/** Greeter. */
public class Greeter extends Base {
    private int n;
    /** Greets. */
    @Override
    public String greet(String who) { return "hi " + who; }
    public Greeter() {}
    interface Inner { void x(); }
}
interface Shape { double area(); }
enum Color { RED }
record Pt(int x) {}
@interface Ann {}
`,
  },
  csharp: {
    path: "src/Greeter.cs",
    content: `using System;
namespace App.Core {
    /// <summary>Greeter.</summary>
    public class Greeter {
        /// <summary>Greets.</summary>
        public string Greet(string who) { return "hi " + who; }
        public int Count { get; set; }
        public Greeter() {}
    }
    public interface IShape { double Area(); }
    public struct Pt { public int X; }
    public enum Color { Red }
    public record Person(string Name);
}
namespace Flat;
class Top { void M() {} }
`,
  },
  cpp: {
    path: "src/geo.cpp",
    content: `#include <vector>
namespace geo {
/// A point.
class Point {
public:
    int x;
    void move(int dx) { x += dx; }
};
struct Pt { int y; };
int add(int a, int b) { return a + b; }
}
void geo::Point2::shift() {}
template <typename T> T maxOf(T a, T b) { return a > b ? a : b; }
enum class Color { Red };
typedef int Id;
using Alias = int;
`,
  },
  c: {
    path: "src/add.c",
    content: `#include <stdio.h>
/* Adds. */
int add(int a, int b) { return a + b; }
struct point { int x; };
typedef struct { int y; } pt_t;
enum color { RED };
static char *name(void) { return "x"; }
#define MAX 5
union u { int a; float b; };
`,
  },
  php: {
    path: "src/Greeter.php",
    content: `<?php
namespace App;
use Foo\\Bar;
/** Greeter. */
class Greeter extends Base {
    /** Greets. */
    public function greet($who) { return "hi " . $who; }
}
interface Shape { public function area(); }
trait Loud { function shout() {} }
function add($a, $b) { return $a + $b; }
enum Suit { case Hearts; }
`,
  },
  swift: {
    path: "Sources/Greeter.swift",
    content: `import Foundation
/// Greeter.
class Greeter {
    /// Greets.
    func greet(_ who: String) -> String { return "hi " + who }
    init() {}
}
struct Point { var x: Int }
protocol Shape { func area() -> Double }
enum Color { case red }
extension Point { func moved() -> Point { self } }
func add(_ a: Int, _ b: Int) -> Int { a + b }
typealias ID = String
`,
  },
  kotlin: {
    path: "src/Greeter.kt",
    content: `package app
import kotlin.math.*
/** Greeter. */
class Greeter(val name: String) {
    /** Greets. */
    fun greet(who: String): String = "hi $who"
}
object Singleton {
    fun x() = 1
}
interface Shape { fun area(): Double }
enum class Color { RED }
data class Pt(val x: Int)
fun add(a: Int, b: Int): Int = a + b
typealias ID = String
val top = 1
`,
  },
  scala: {
    path: "src/Greeter.scala",
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
    path: "lua/m.lua",
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
    path: "lib/greeter.ex",
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
    path: "src/Main.elm",
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
    path: "lib/geo.ml",
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
    path: "lib/greeter.dart",
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
    path: "src/main.zig",
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
    path: "contracts/Token.sol",
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
    path: "scripts/build.sh",
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
    path: "styles/app.css",
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
    path: "public/index.html",
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
    path: "src/App.vue",
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
    path: "package.json",
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
    path: "config.yaml",
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
    path: "Cargo.toml",
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

export const EXPECTED: Record<CodeLanguage, ExpectedSymbol[]> = {
  typescript: [
    ['function', 'add', 'Adds numbers.'], ['interface', 'Shape'], ['type', 'Id'], ['enum', 'Color'],
    ['function', 'double'], ['class', 'Greeter'], ['method', 'Greeter.greet', 'Say hi.'], ['method', 'Greeter.area'],
    ['module', 'NS'], ['class', 'Abs'], ['export statement', ''],
  ],
  tsx: [['function', 'App'], ['function', 'Button']],
  javascript: [['function', 'add', 'Adds.'], ['class', 'Greeter'], ['method', 'Greeter.greet'], ['function', 'mul'], ['function', 'gen']],
  python: [['function', 'add', 'Add two numbers.'], ['class', 'Greeter', 'A greeter.'], ['method', 'Greeter.greet', 'Say hi.'], ['method', 'Greeter.later'], ['variable', 'X']],
  ruby: [['module', 'Util'], ['class', 'Util.Greeter'], ['method', 'Util.Greeter.greet', 'Say hi.'], ['function', 'top']],
  go: [['function', 'Add', 'Add adds.'], ['struct', 'Point'], ['interface', 'Shape'], ['type', 'ID'], ['method', 'Point.Move']],
  rust: [
    ['struct', 'Point', 'A point.'], ['enum', 'Color'], ['trait', 'Shape'], ['impl', 'Point'], ['method', 'Point.area', 'Area.'],
    ['function', 'add'], ['module', 'inner'],
  ],
  java: [['class', 'Greeter', 'Greeter.'], ['method', 'Greeter.greet', 'Greets.'], ['interface', 'Shape'], ['enum', 'Color']],
  csharp: [
    ['module', 'App.Core'], ['class', 'App.Core.Greeter'], ['method', 'App.Core.Greeter.Greet'], ['interface', 'App.Core.IShape'],
    ['struct', 'App.Core.Pt'], ['enum', 'App.Core.Color'],
  ],
  cpp: [
    ['module', 'geo'], ['class', 'geo.Point', 'A point.'], ['method', 'geo.Point.move'], ['struct', 'geo.Pt'], ['function', 'geo.add'],
    ['method', 'geo.Point2.shift'], ['function', 'maxOf'], ['enum', 'Color'],
  ],
  c: [['function', 'add', 'Adds.'], ['struct', 'point'], ['type', 'pt_t'], ['enum', 'color'], ['function', 'name']],
  php: [['class', 'Greeter', 'Greeter.'], ['method', 'Greeter.greet', 'Greets.'], ['interface', 'Shape'], ['trait', 'Loud'], ['function', 'add'], ['enum', 'Suit']],
  swift: [
    ['class', 'Greeter', 'Greeter.'], ['method', 'Greeter.greet', 'Greets.'], ['struct', 'Point'], ['interface', 'Shape'],
    ['enum', 'Color'], ['extension', 'Point'], ['function', 'add'],
  ],
  kotlin: [['class', 'Greeter', 'Greeter.'], ['method', 'Greeter.greet', 'Greets.'], ['class', 'Singleton'], ['interface', 'Shape'], ['enum', 'Color'], ['function', 'add']],
  scala: [['class', 'Greeter', 'Greeter.'], ['method', 'Greeter.greet', 'Greets.'], ['class', 'Main'], ['trait', 'Shape'], ['function', 'add']],
  lua: [['function', 'add', 'Adds.'], ['function', 'M.greet'], ['method', 'Greeter.say'], ['function', 'mul'], ['function', 'M.div']],
  elixir: [
    ['module', 'Greeter', 'Greets.'], ['function', 'Greeter.greet', 'Says hi.'], ['function', 'Greeter.secret'], ['macro', 'Greeter.m'],
    ['interface', 'Shape'],
  ],
  elm: [['function', 'add', 'Adds numbers.'], ['type', 'Color'], ['type', 'Point'], ['function', 'main']],
  ocaml: [
    ['function', 'add', 'Adds.'], ['function', 'fact'], ['type', 'color'], ['module', 'Geo'], ['function', 'Geo.area', 'Area of a square.'],
    ['interface', 'SHAPE'], ['class', 'greeter'],
  ],
  dart: [['class', 'Greeter', 'Greeter.'], ['method', 'Greeter.greet', 'Greets.'], ['function', 'add'], ['enum', 'Color'], ['trait', 'Loud']],
  zig: [['function', 'add', 'Adds.'], ['struct', 'Point'], ['method', 'Point.move'], ['enum', 'Color']],
  solidity: [['contract', 'Token', '@title Token'], ['function', 'Token.send', '@notice Sends.'], ['interface', 'IToken'], ['contract', 'Math']],
  bash: [['function', 'greet', 'Greets.'], ['function', 'build']],
  css: [['rule', '.btn, .button', 'Buttons'], ['rule', '#main > p'], ['media', '@media (max-width: 600px)'], ['keyframes', 'spin']],
  html: [['element', 'html'], ['element', 'html.head'], ['element', 'html.body'], ['element', 'html.body.div#app']],
  vue: [['element', 'template'], ['element', 'script'], ['element', 'style'], ['function', 'add']],
  json: [['key', 'name'], ['key', 'version'], ['key', 'scripts'], ['key', 'scripts.build']],
  yaml: [['key', 'name', 'config'], ['key', 'server'], ['key', 'server.port'], ['key', 'items']],
  toml: [['key', 'title'], ['table', 'package'], ['key', 'package.name'], ['table', 'dependencies'], ['table', 'bin']],
}
