/** An Evernote export as Evernote writes it: XML with a DTD line, ENML in CDATA, base64 resources. */

function note(fields: { title: string; created?: string; tags?: string[]; content: string; extra?: string }): string {
  return [
    '  <note>',
    `    <title>${fields.title}</title>`,
    fields.created ? `    <created>${fields.created}</created>` : '',
    '    <updated>20240116T080000Z</updated>',
    ...(fields.tags ?? []).map((tag) => `    <tag>${tag}</tag>`),
    fields.extra ?? '',
    '    <content>',
    `      <![CDATA[<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">\n<en-note>${fields.content}</en-note>]]>`,
    '    </content>',
    '  </note>',
  ]
    .filter((line) => line !== '')
    .join('\n')
}

export function enexExport(): string {
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">',
    '<en-export export-date="20240120T101500Z" application="Evernote" version="10.68.2">',
    note({
      title: 'Trip &amp; packing list',
      created: '20240115T103000Z',
      tags: ['travel', 'lists'],
      extra:
        '    <note-attributes>\n      <author>Ada</author>\n      <source-url>https://example.org/packing</source-url>\n    </note-attributes>\n    <resource><data encoding="base64">iVBORw0KGgoAAAANSUhEUg==</data><mime>image/png</mime><resource-attributes><file-name>map.png</file-name></resource-attributes></resource>',
      content:
        '<div>Bring the <b>passport</b> &amp; tickets.</div><div><en-todo checked="true"/>Book the hotel</div><div><en-todo/>Buy an adapter</div><en-media hash="4f1c" type="image/png"/><h2>Cities</h2><ul><li>Lisbon</li><li>Porto</li></ul>',
    }),
    note({ title: 'Meeting', created: '20240110T090000Z', content: '<div>First meeting.</div>' }),
    note({ title: 'Meeting', created: '20240111T090000Z', content: '<div>Second meeting, <a href="https://example.org/agenda">agenda</a>.</div>' }),
    note({ title: 'Meeting', created: '20240111T140000Z', content: '<div>Third meeting.</div>' }),
    note({ title: 'Undated', content: '<div>No date.</div>' }),
    '</en-export>',
  ].join('\n')
}
