// test-runner: shares a process
import t from 'tap'
import { search, setSearchLanguage } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { firstSearchTextFunction } from '../helpers/first-segmenter.js'
import { context, importAll, slugs, type PageSpec } from './helpers.js'

const pages: PageSpec[] = [
  { slug: 'notes/zh', content: '我们使用笔记软件来管理个人知识库，每周复习一次。' },
  { slug: 'notes/ja', content: '来週は東京でプロジェクトの打ち合わせがあります。' },
  { slug: 'notes/ko', content: '우리는 다음 주에 새로운 프로젝트를 시작합니다.' },
  { slug: 'notes/mixed', content: 'The deploy checklist lives here. 部署清单在这里，请先检查数据库备份。' },
  { slug: 'notes/en', content: 'Spaced repetition helps you review what you learn every week.' },
]

engineTest(t, 'Chinese, Japanese and Korean words are found inside sentences', async (t, { db }) => {
  await importAll(db, pages, null)
  const ctx = context(db, undefined)
  t.same(slugs(await search(ctx, '知识库')), ['notes/zh'], 'a word inside a Chinese sentence')
  t.same(slugs(await search(ctx, '笔记')), ['notes/zh'])
  t.same(slugs(await search(ctx, '复习')), ['notes/zh'])
  t.same(slugs(await search(ctx, '東京')), ['notes/ja'], 'Japanese kanji')
  t.same(slugs(await search(ctx, 'プロジェクト')), ['notes/ja'], 'Japanese katakana')
  t.same(slugs(await search(ctx, '프로젝트')), ['notes/ko'], 'a Korean word with its particle attached')
  t.same(slugs(await search(ctx, '数据库')), ['notes/mixed'], 'the Chinese half of a mixed page')
  t.same(slugs(await search(ctx, 'deploy checklist')), ['notes/mixed'], 'and its English half')
  t.same(slugs(await search(ctx, '"管理个人知识库"')), ['notes/zh'], 'a phrase of several words')
  t.same(slugs(await search(ctx, '"知识库管理"')), [], 'the same characters in another order are not that phrase')
  t.same(slugs(await search(ctx, '数据库 -备份')), [], 'an exclusion removes the page')
  t.same(slugs(await search(ctx, 'review week')), ['notes/en'], 'English search as before')
  const [hit] = (await search(ctx, '知识库')).results
  t.match(hit?.snippet, /知识库/, 'the snippet shows the matched text')
})

engineTest(t, 'segmentation holds under another search language and a re-index', async (t, { db }) => {
  await importAll(db, pages, null)
  await setSearchLanguage(db, 'simple')
  const ctx = context(db, undefined)
  t.same(slugs(await search(ctx, '复习')), ['notes/zh'])
  t.same(slugs(await search(ctx, '打ち合わせ')), ['notes/ja'])
})

engineTest(t, 'segmentation yields the same words, at the same positions, as its first form', async (t, { db }) => {
  const texts = [
    ...pages.map((p) => p.content),
    '知',
    'a知b',
    '知识库',
    'abc知识库def',
    '  前后 有空格  ',
    '東京タワー(Tokyo Tower)と스카이트리',
    '第1章：概要\n第2章：詳細',
    'x, 知识库。y! 数据 - 备份',
    'plain English with no CJK at all',
    '',
  ]
  await db.transaction(async (tx) => {
    await tx.query(firstSearchTextFunction('pg_temp.reference_search_text'))
    const { rows } = await tx.query<{ x: string; now: string; reference: string }>(
      `SELECT x, to_tsvector('simple', brain_search_text(x))::text AS now, to_tsvector('simple', pg_temp.reference_search_text(x))::text AS reference FROM unnest($1::text[]) AS x`,
      [texts],
    )
    for (const row of rows) t.equal(row.now, row.reference, JSON.stringify(row.x))
  })
})
