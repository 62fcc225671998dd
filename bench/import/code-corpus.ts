/**
 * A deterministic mixed-language source tree: the same small module (a type, a few functions,
 * a doc comment) written in twelve languages, repeated with varying names and sizes.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

type Template = (n: number, fns: number) => string

const repeat = (fns: number, body: (i: number) => string): string => Array.from({ length: fns }, (_, i) => body(i)).join('\n')

const TEMPLATES: Record<string, Template> = {
  py: (n, f) =>
    `"""Inventory module ${n}."""\n\nclass Store${n}:\n    """Holds items."""\n\n    def __init__(self):\n        self.items = {}\n\n${repeat(f, (i) => `    def add_${i}(self, key, qty):\n        """Add stock ${i}."""\n        self.items[key] = self.items.get(key, 0) + qty * ${i + 1}\n        return self.items[key]\n`)}`,
  go: (n, f) =>
    `package inventory${n}\n\n// Store${n} holds items.\ntype Store${n} struct {\n\titems map[string]int\n}\n\n${repeat(f, (i) => `// Add${i} adds stock.\nfunc (s *Store${n}) Add${i}(key string, qty int) int {\n\ts.items[key] += qty * ${i + 1}\n\treturn s.items[key]\n}\n`)}`,
  rs: (n, f) =>
    `/// Holds items.\npub struct Store${n} {\n    items: std::collections::HashMap<String, i64>,\n}\n\nimpl Store${n} {\n${repeat(f, (i) => `    /// Adds stock ${i}.\n    pub fn add_${i}(&mut self, key: &str, qty: i64) -> i64 {\n        let e = self.items.entry(key.to_string()).or_insert(0);\n        *e += qty * ${i + 1};\n        *e\n    }\n`)}}\n`,
  java: (n, f) =>
    `package inventory;\n\n/** Holds items. */\npublic class Store${n} {\n    private final java.util.Map<String, Integer> items = new java.util.HashMap<>();\n\n${repeat(f, (i) => `    /** Adds stock ${i}. */\n    public int add${i}(String key, int qty) {\n        items.merge(key, qty * ${i + 1}, Integer::sum);\n        return items.get(key);\n    }\n`)}}\n`,
  rb: (n, f) =>
    `# Holds items.\nclass Store${n}\n  def initialize\n    @items = Hash.new(0)\n  end\n\n${repeat(f, (i) => `  # Adds stock ${i}.\n  def add_${i}(key, qty)\n    @items[key] += qty * ${i + 1}\n  end\n`)}end\n`,
  ts: (n, f) =>
    `/** Holds items. */\nexport class Store${n} {\n  private items = new Map<string, number>()\n\n${repeat(f, (i) => `  /** Adds stock ${i}. */\n  add${i}(key: string, qty: number): number {\n    const next = (this.items.get(key) ?? 0) + qty * ${i + 1}\n    this.items.set(key, next)\n    return next\n  }\n`)}}\n`,
  c: (n, f) =>
    `#include <string.h>\n\n/* Holds items. */\nstruct store_${n} {\n  int counts[64];\n};\n\n${repeat(f, (i) => `/* Adds stock ${i}. */\nint store_${n}_add_${i}(struct store_${n} *s, int slot, int qty) {\n  s->counts[slot % 64] += qty * ${i + 1};\n  return s->counts[slot % 64];\n}\n`)}`,
  cpp: (n, f) =>
    `#include <map>\n#include <string>\n\nnamespace inventory {\n/// Holds items.\nclass Store${n} {\n public:\n${repeat(f, (i) => `  /// Adds stock ${i}.\n  int add${i}(const std::string& key, int qty) {\n    items_[key] += qty * ${i + 1};\n    return items_[key];\n  }\n`)}\n private:\n  std::map<std::string, int> items_;\n};\n}  // namespace inventory\n`,
  kt: (n, f) =>
    `package inventory\n\n/** Holds items. */\nclass Store${n} {\n    private val items = mutableMapOf<String, Int>()\n\n${repeat(f, (i) => `    /** Adds stock ${i}. */\n    fun add${i}(key: String, qty: Int): Int {\n        items[key] = (items[key] ?: 0) + qty * ${i + 1}\n        return items.getValue(key)\n    }\n`)}}\n`,
  php: (n, f) =>
    `<?php\n\n/** Holds items. */\nclass Store${n}\n{\n    private array $items = [];\n\n${repeat(f, (i) => `    /** Adds stock ${i}. */\n    public function add${i}(string $key, int $qty): int\n    {\n        $this->items[$key] = ($this->items[$key] ?? 0) + $qty * ${i + 1};\n        return $this->items[$key];\n    }\n`)}}\n`,
  sh: (n, f) => `#!/usr/bin/env bash\n# Inventory helpers ${n}.\n\n${repeat(f, (i) => `# Adds stock ${i}.\nadd_${n}_${i}() {\n  local qty="$1"\n  echo $(( qty * ${i + 1} ))\n}\n`)}`,
  yaml: (n, f) => `# Inventory service ${n}\nservice:\n  name: store-${n}\n  replicas: ${1 + (n % 3)}\n${repeat(f, (i) => `  handler_${i}:\n    path: /add/${i}\n    timeout: ${i + 1}s\n`)}`,
}

/** Writes `perLanguage` files for each language below `root`; returns the file count. */
export function writeCodeCorpus(root: string, perLanguage: number): number {
  let count = 0
  for (const [ext, template] of Object.entries(TEMPLATES)) {
    for (let n = 0; n < perLanguage; n++) {
      const path = join(root, ext, `module_${n}/store_${n}.${ext}`)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, template(n, 2 + (n % 9)))
      count++
    }
  }
  return count
}
