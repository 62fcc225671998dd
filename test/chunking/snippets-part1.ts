import type { Snippet } from './snippets.js'

/** Snippets for the first half of the languages, in registry order. */
export const SNIPPETS_PART1: Record<string, Snippet> = {
  typescript: {
    path: 'src/app.ts',
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
    path: 'src/App.tsx',
    content: `import React from 'react'
export function App({ name }: { name: string }) {
  return <div className="x">{name}</div>
}
const Button = () => <button>ok</button>
`,
  },
  javascript: {
    path: 'lib/util.js',
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
    path: 'app/greeter.py',
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
    path: 'lib/util.rb',
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
    path: 'cmd/main.go',
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
    path: 'src/lib.rs',
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
    path: 'src/Greeter.java',
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
    path: 'src/Greeter.cs',
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
    path: 'src/geo.cpp',
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
    path: 'src/add.c',
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
    path: 'src/Greeter.php',
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
    path: 'Sources/Greeter.swift',
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
    path: 'src/Greeter.kt',
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
}
