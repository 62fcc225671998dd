/** EPUB books for the converter tests, zipped here from their parts as an EPUB 3 writer lays them out. */
import { zip } from './docx-fixtures.js'

export function epubParts(): Record<string, string> {
  return {
    mimetype: 'application/epub+zip',
    'META-INF/container.xml':
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    'OEBPS/content.opf': [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">',
      '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">',
      '<dc:identifier id="id">urn:uuid:0000</dc:identifier><dc:title>Gardens &amp; Orchards</dc:title>',
      '<dc:creator id="a1">Ada Lovelace</dc:creator><dc:creator id="a2">Mary Somerville</dc:creator><dc:language>en</dc:language>',
      '</metadata>',
      '<manifest>',
      '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
      '<item id="c1" href="text/chapter%201.xhtml" media-type="application/xhtml+xml"/>',
      '<item id="c2" href="text/chapter2.xhtml" media-type="application/xhtml+xml"/>',
      '<item id="css" href="style.css" media-type="text/css"/>',
      '<item id="img" href="images/tree.png" media-type="image/png"/>',
      '</manifest>',
      '<spine><itemref idref="c1"/><itemref idref="c2"/></spine>',
      '</package>',
    ].join('\n'),
    'OEBPS/nav.xhtml': '<html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol><li><a href="text/chapter%201.xhtml">Soil</a></li></ol></nav></body></html>',
    'OEBPS/text/chapter 1.xhtml':
      '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Soil</title><script>alert(1)</script></head><body><h1>Soil</h1><p>Compost feeds the <em>soil</em>. See <a href="chapter2.xhtml#pruning">pruning</a> and <a href="https://example.org/compost">a guide</a>.</p><img src="../images/tree.png" alt="a tree"/><h2>Worms</h2><p>Worms help.</p></body></html>',
    'OEBPS/text/chapter2.xhtml': '<html xmlns="http://www.w3.org/1999/xhtml"><body><h1 id="pruning">Pruning</h1><p>Prune apple trees in winter.</p></body></html>',
    'OEBPS/style.css': 'p { margin: 0 }',
  }
}

export function epub(parts: Record<string, string> = epubParts()): Buffer {
  return zip(parts)
}
