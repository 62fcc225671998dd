// test-runner: shares a process
import t from 'tap'
import { convertBounded } from '../../src/convert/index.js'
import { ARTICLE_HTML } from './html-fixtures.js'

t.test('HTML: main content as markdown; navigation, footer and scripts left out; metadata in front matter', async (t) => {
  const r = await convertBounded({ bytes: new TextEncoder().encode(ARTICLE_HTML), name: 'tides.html', url: 'https://coast.example/posts/tides?ref=x', fetchedAt: '2024-06-01T00:00:00.000Z' })
  t.equal(r.format, 'html')
  const d = r.drafts[0]!
  t.equal(d.title, 'Reading tide tables')
  t.match(d.frontmatter, {
    type: 'web',
    source_format: 'html',
    canonical_url: 'https://coast.example/posts/tides',
    site_name: 'Coast Notes',
    url: 'https://coast.example/posts/tides?ref=x',
    fetched_at: '2024-06-01T00:00:00.000Z',
  })
  t.match(d.body, /## Columns/)
  t.match(d.body, /- Time of high water\n- Height in metres/)
  t.match(d.body, /\[the official tables\]\(https:\/\/example\.org\/tides\)/)
  t.match(d.body, /```python\ndef height\(t\):\n    return 2\.5 \* t\n```/)
  t.match(d.body, /\| Port \| High \|\n\| --- \| --- \|\n\| Dover \| 06:12 \|/)
  t.notMatch(d.body, /Archive|All rights reserved|should never run|color:red/)
})

t.test('HTML without markup is refused with a code', async (t) => {
  await t.rejects(convertBounded({ bytes: new TextEncoder().encode('just words'), name: 'x.html' }), { code: 'convert_unsupported' })
})

t.test('HTML: a <pre> without <code> is a code block too, kept as written', async (t) => {
  const html = `<!doctype html><html><head><title>Quick start</title></head><body><div class="chapter">
<h1>Interpreting the output</h1>
<p>Here is an example C program with a memory error and a leak. It is long enough to be the main content of the page,
and it explains what each line of the program does and why the tool reports it the way it does.</p>
<pre class="programlisting">
  #include &lt;stdlib.h&gt;

  void f(void)
  {
     int* x = malloc(10 * sizeof(int));
     x[10] = 0;        // problem 1: heap block overrun
  }
</pre>
<pre class="lang-sh">echo \`\`\`three\`\`\`</pre>
<p>Most error messages look like the one below, which describes the overrun, and each names the place it happened.</p>
</div></body></html>`
  const r = await convertBounded({ bytes: new TextEncoder().encode(html), name: 'quick-start.html' })
  const body = r.drafts[0]!.body
  t.match(body, '```\n  #include <stdlib.h>\n\n  void f(void)\n  {\n     int* x = malloc(10 * sizeof(int));\n     x[10] = 0;        // problem 1: heap block overrun\n  }\n```')
  t.match(body, '````sh\necho ```three```\n````', 'a longer fence than any run of backticks inside')
  t.notMatch(body, /\\\*|\\\[/, 'nothing escaped')
})

t.test('HTML from a documentation generator: a hidden help box before the content is no title, and headings lose their permalinks', async (t) => {
  const paragraph = 'Rustdoc takes a crate root or a Markdown file and produces HTML, CSS and JavaScript for the documentation of a project. '.repeat(3)
  const html = `<!doctype html><html><head><title>What is rustdoc? - The rustdoc book</title></head><body>
<div id="help-container"><div id="help-popup"><h2 class="help-title">Keyboard shortcuts</h2><p>Press ? to show this help</p></div></div>
<div id="body"><h1 class="menu-title">The rustdoc book</h1>
<main><h1 id="what-is-rustdoc"><a class="header" href="#what-is-rustdoc">What is rustdoc?</a></h1>
<p>${paragraph}</p>
<h2 id="basic-usage">Basic usage<a class="headerlink" href="#basic-usage" title="Permalink">¶</a></h2>
<p>${paragraph} Run it on <a href="#basic-usage">the crate root</a>.</p></main></div></body></html>`
  const d = (await convertBounded({ bytes: new TextEncoder().encode(html), name: 'what-is-rustdoc.html' })).drafts[0]!
  t.equal(d.title, 'What is rustdoc?')
  t.notMatch(d.body, /Keyboard shortcuts|Press \?/)
  t.match(d.body, /^# What is rustdoc\?\n\nRustdoc takes/)
  t.match(d.body, /^## Basic usage$/m)
  t.match(d.body, /\[the crate root\]\(#basic-usage\)/, 'a link to a section from the text stays a link')
})

t.test('HTML whose content opens with a heading the <title> does not hold: that heading still names it', async (t) => {
  const html = `<html><head><title>Home | My Site</title></head><body><article><h1>Welcome to the garden</h1><p>${'Plants grow in rows along the fence. '.repeat(8)}</p></article></body></html>`
  const d = (await convertBounded({ bytes: new TextEncoder().encode(html), name: 'index.html' })).drafts[0]!
  t.equal(d.title, 'Welcome to the garden')
  t.match(d.body, /^# Welcome to the garden\n\nPlants grow/)
})

t.test('HTML that marks its main content is read from there alone, even when it is short beside a box outside it', async (t) => {
  const help = Array.from({ length: 8 }, (_, i) => `<p>Press key ${i} to do thing number ${i} in this book, then press it again to undo it.</p>`).join('')
  const html = `<html><head><title>The #[doc] attribute - A book</title></head><body>
<div id="help"><h2>Keyboard shortcuts</h2>${help}</div>
<nav><a href="a.html">Chapter A</a> <a href="b.html">Chapter B</a></nav>
<main><h1 id="doc"><a class="header" href="#doc">The <code>#[doc]</code> attribute</a></h1>
<ul><li><a href="https://example.org/one">One reference</a></li><li><a href="https://example.org/two">Two</a></li></ul></main></body></html>`
  const d = (await convertBounded({ bytes: new TextEncoder().encode(html), name: 'doc.html' })).drafts[0]!
  t.equal(d.title, 'The #[doc] attribute')
  t.match(d.body, /\[One reference\]\(https:\/\/example\.org\/one\)/)
  t.notMatch(d.body, /Keyboard shortcuts|Press key|Chapter A/)
})

t.test('a title taken from a heading reads as written: no markdown escapes, code spans as their text', async (t) => {
  const html = `<html><head><title>is_x86 in std - Rust</title></head><body><main><h1>Macro <span>is_x86_feature_detected</span> and <code>a\\_b*</code></h1><p>${'Tests at runtime whether a feature is available. '.repeat(6)}</p></main></body></html>`
  const d = (await convertBounded({ bytes: new TextEncoder().encode(html), name: 'macro.html' })).drafts[0]!
  t.equal(d.title, 'Macro is_x86_feature_detected and a\\_b*')
})

t.test('a Sphinx page: the title from the heading its <title> starts with, the pilcrow and the breadcrumb before it left out', async (t) => {
  const html = `<html><head><title>Tutorial — Example 3.12 documentation</title></head><body>
<div class="sphinxsidebar"><h3>Navigation</h3><ul><li><a href="index.html">Home</a></li></ul></div>
<div role="main"><div class="breadcrumbs">Docs » Tutorial</div><section id="tutorial"><h1>Tutorial<a class="headerlink" href="#tutorial" title="Link to this heading">¶</a></h1>
<p>${'This tutorial walks through the basics one step at a time. '.repeat(6)}</p>
<section id="first-steps"><h2>First steps<a class="headerlink" href="#first-steps">¶</a></h2><p>${'Install it first. '.repeat(10)}</p></section></section></div></body></html>`
  const d = (await convertBounded({ bytes: new TextEncoder().encode(html), name: 'tutorial.html' })).drafts[0]!
  t.equal(d.title, 'Tutorial')
  t.match(d.body, /^# Tutorial\n\nThis tutorial walks/)
  t.match(d.body, /^## First steps$/m)
  t.notMatch(d.body, /¶|Navigation|Docs »/)
})

t.test('a code block takes its language from a class the chunker knows, on it or on the blocks around it', async (t) => {
  const prose = `<p>${'An example of each generator follows. '.repeat(8)}</p>`
  const html = `<html><head><title>Examples</title></head><body><main><h1>Examples</h1>${prose}
<pre class="rust item-decl"><code>fn main() {}</code></pre>
<div class="highlight-python notranslate"><div class="highlight"><pre><span></span>print("hi")</pre></div></div>
<div class="sourceCode"><pre class="sourceCode js"><code>let a = 1</code></pre></div>
<div class="note"><pre class="output">plain output</pre></div></main></body></html>`
  const d = (await convertBounded({ bytes: new TextEncoder().encode(html), name: 'examples.html' })).drafts[0]!
  t.same(d.body.match(/^```\w*$/gm), ['```rust', '```', '```python', '```', '```js', '```', '```', '```'])
})
