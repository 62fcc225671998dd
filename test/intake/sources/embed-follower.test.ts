// test-runner: shares a process
import t from 'tap'
import { countStaleChunks } from '../../../src/embedding/store/index.js'
import { importFiles, type ImportFilesProgress } from '../../../src/intake/import/import-files.js'
import type { WalkedFile } from '../../../src/intake/sources/walk.js'
import { engineTest } from '../../helpers/engines.js'
import { bagOfWordsEmbedder, failingEmbedder } from '../../search/helpers.js'

const FILES = 40

function notes(): { files: WalkedFile[]; read: (file: WalkedFile) => Promise<string> } {
  const files = Array.from({ length: FILES }, (_, i) => ({ relativePath: `notes/note-${String(i).padStart(2, '0')}.md`, absolutePath: `/unused/${i}`, kind: 'markdown' as const, size: 0 }))
  const read = async (file: WalkedFile): Promise<string> => `# ${file.relativePath}\n\nA note about gardens, queues and ${file.relativePath}.\n`
  return { files, read }
}

engineTest(t, 'import embeds pages while later files are still being written', async (t, { db }) => {
  const { files, read } = notes()
  const embedder = bagOfWordsEmbedder()
  const events: string[] = []
  const wrapped = { ...embedder, embed: async (texts: string[]) => (events.push(`embed ${texts.length}`), embedder.embed(texts)) }
  const result = await importFiles(db, files, {
    sourceId: 'default',
    embedder: wrapped,
    readContent: read,
    onProgress: (p: ImportFilesProgress) => {
      if (p.phase === 'import') events.push(`file ${p.done}`)
    },
  })
  t.equal(result.created, FILES)
  t.equal(result.embedded, result.chunks, 'every chunk embedded')
  t.equal(result.embedError, null)
  t.equal(await countStaleChunks(db), 0)
  const firstEmbed = events.findIndex((e) => e.startsWith('embed'))
  const lastFile = events.lastIndexOf(`file ${FILES - 1}`)
  t.ok(firstEmbed >= 0 && firstEmbed < lastFile, `the first embedding call (event ${firstEmbed}) came before the last file (event ${lastFile})`)
})

engineTest(t, 'a failing provider during import leaves chunks stale and the import intact', async (t, { db }) => {
  const { files, read } = notes()
  const result = await importFiles(db, files, { sourceId: 'default', embedder: failingEmbedder('broken-model'), readContent: read })
  t.equal(result.created, FILES, 'every page written')
  t.equal(result.failed.length, 0)
  t.equal(result.embedded, 0)
  t.not(result.embedError, null, 'the embedding error is reported')
  t.equal(await countStaleChunks(db), result.chunks, 'all chunks stay stale for embed --stale')
})

engineTest(t, 'a cancelled import stops, also while embedding follows it', async (t, { db }) => {
  const { files, read } = notes()
  const controller = new AbortController()
  const run = importFiles(db, files, {
    sourceId: 'default',
    embedder: bagOfWordsEmbedder(),
    readContent: read,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.phase === 'import' && p.done === 30) controller.abort(new Error('import cancelled'))
    },
  })
  await t.rejects(run, /import cancelled/)
})
