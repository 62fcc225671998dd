/**
 * A small multi-language repository, imported as code pages, plus a markdown note citing it.
 * Every language has a caller → callee pair; queue.ts has a call cycle and `duplicate` is
 * defined twice (ambiguous).
 */
import type { Database } from '../../src/db/types.js'
import { importPage, type ImportOptions } from '../../src/pages/index.js'

export const REPO: Record<string, string> = {
  'src/queue.ts': `import { audit } from './audit'

export class Queue {
  submit(job: string): string {
    this.validate(job)
    return enqueue(job)
  }

  validate(job: string): void {
    if (!job) throw new Error('empty')
  }
}

export function enqueue(job: string): string {
  audit(job)
  return store(job)
}

function store(job: string): string {
  return job.length > 100 ? enqueue(job.slice(1)) : job
}
`,
  'src/app.tsx': `import { Queue } from './queue'

export function App() {
  const q = new Queue()
  q.submit('x')
  return <div>{renderTitle()}</div>
}

function renderTitle() {
  return 'title'
}
`,
  'lib/util.js': `function helper() {
  return formatValue(1)
}

function formatValue(v) {
  return String(v)
}

module.exports = { helper, formatValue }
`,
  'app/main.py': `from util import parse


def main():
    data = parse("x")
    return run(data)


def run(d):
    return d


class Worker:
    def start(self):
        self.step()

    def step(self):
        return 1
`,
  'cmd/main.go': `package main

import "fmt"

func Main() {
	Serve()
}

func Serve() {
	fmt.Println("serving")
}
`,
  'src/lib.rs': `struct Point {
    x: i32,
}

impl Point {
    fn origin() -> Point {
        Point { x: 0 }
    }
}

fn compute() -> i32 {
    let p = Point::origin();
    p.x
}

fn main() {
    compute();
}
`,
  'src/App.java': `public class App {
    void run() {
        greet();
    }

    void greet() {
        System.out.println("hi");
    }
}
`,
  'src/Program.cs': `public class Program {
    void Run() {
        Greet();
    }

    void Greet() {
        System.Console.WriteLine("hi");
    }
}
`,
  'lib/tool.rb': `class Tool
  def run
    prepare()
    Report.new
  end

  def prepare
    1
  end
end
`,
  'src/index.php': `<?php
function handle() {
    return render();
}

function render() {
    return "ok";
}
`,
  'src/main.c': `void tock(void) {
}

void tick(void) {
    tock();
}
`,
  'src/engine.cpp': `void spin() {
}

void start() {
    spin();
}
`,
  'src/dup_a.ts': `export function duplicate(): number {
  return 1
}

export function useDuplicate(): number {
  return duplicate()
}
`,
  'app/dup_b.py': `def duplicate():
    return 2
`,
  'lib/use_dup.js': `function callDuplicate() {
  return duplicate()
}
`,
}

export const NOTE_SLUG = 'notes/design'
export const NOTE = `---
title: Design
---
# Design

The queue lives in src/queue.ts:3 and the entry point in app/main.py. See src/queue.ts again,
and lib/missing.go, which does not exist. \`foo/src/lib.rs\` is not a citation.

## Timeline

- 2024-01-02: moved the server to cmd/main.go
`

export async function importRepo(db: Database, options: ImportOptions = {}, paths: readonly string[] = Object.keys(REPO)): Promise<void> {
  for (const path of paths) await importPage(db, { slug: path, kind: 'code', content: REPO[path]!, path }, options)
}

export async function importNote(db: Database, options: ImportOptions = {}, content = NOTE): Promise<void> {
  await importPage(db, { slug: NOTE_SLUG, kind: 'markdown', content }, options)
}
