import t from 'tap'
import { search, setSearchLanguage } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
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
