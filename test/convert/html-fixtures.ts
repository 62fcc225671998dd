/** An article page with the parts a reader leaves out around it: navigation, a script, a footer. */
export const ARTICLE_HTML = `<!doctype html><html><head><title>Tide tables | Coast Notes</title>
<link rel="canonical" href="/posts/tides"><meta property="og:site_name" content="Coast Notes">
<script>document.write('should never run')</script><style>body{color:red}</style></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/archive">Archive</a></nav>
<article><h1>Reading tide tables</h1>
<p>Tide tables list the times and heights of high and low water for a harbour. This article explains how to read them,
how to correct for your own location, and what the columns mean. It is long enough to count as the main content.</p>
<h2>Columns</h2><ul><li>Time of high water</li><li>Height in metres</li></ul>
<p>See <a href="https://example.org/tides">the official tables</a> for your harbour. Spring tides come after full and new moon,
neap tides after the quarter moons; the difference can be several metres on some coasts.</p>
<pre><code class="language-python">def height(t):
    return 2.5 * t</code></pre>
<table><thead><tr><th>Port</th><th>High</th></tr></thead><tbody><tr><td>Dover</td><td>06:12</td></tr></tbody></table>
</article><footer>Copyright 2024 Coast Notes. All rights reserved. Privacy policy.</footer></body></html>`
