import { Command, Option } from 'clipanion'
import type { Config } from '../../config/index.js'
import type { FileResult, HookResult, PageRoot, ValidateReport } from '../../frontmatter/index.js'
import type { SourceRecord } from '../../intake/sources/source-repository.js'
import { BrainCommand } from '../brain-command.js'

function describeResult(r: FileResult, lintOnly: boolean): string[] {
  const lines: string[] = []
  if (r.readError) lines.push(`${r.path}: not checked: ${r.readError.message}`)
  const shown = lintOnly ? r.lint.map((f) => ({ line: f.line, label: f.rule, message: f.message })) : r.remaining.map((e) => ({ line: e.line, label: e.code, message: e.message }))
  for (const e of shown) lines.push(`${r.path}:${e.line}: ${e.label} ${e.message}`)
  if (r.fixed.length > 0) {
    lines.push(`${r.path}: ${r.backup ? 'fixed' : 'would fix'} ${r.fixed.join(', ')}${r.backup ? ` (original kept as ${r.backup})` : ''}`)
    if (r.change) {
      for (const l of r.change.removed) lines.push(`  - ${JSON.stringify(l).slice(1, -1)}`)
      for (const l of r.change.added) lines.push(`  + ${JSON.stringify(l).slice(1, -1)}`)
    }
  }
  return lines
}

function describeValidate(report: ValidateReport, lintOnly: boolean): string {
  const lines = report.results.flatMap((r) => describeResult(r, lintOnly))
  for (const path of report.skipped) lines.push(`${path}: skipped (sync does not import it as a page)`)
  const fixable = report.results.filter((r) => r.fixed.length === 0 && r.errors.some((e) => e.fixable)).length
  const tail = fixable > 0 ? `; ${fixable} fixable with --fix` : ''
  lines.push(`${report.files} file(s) checked, ${report.filesWithIssues} with front matter problems${tail}`)
  return lines.join('\n')
}

function hasFailures(report: ValidateReport, lintOnly: boolean): boolean {
  if (report.results.some((r) => r.readError)) return true
  if (lintOnly) return report.results.some((r) => r.lint.length > 0 || (r.fixed.length > 0 && !r.backup))
  return report.status === 'issues' || report.status === 'would_fix'
}

export class FrontmatterValidateCommand extends BrainCommand {
  static override paths = [['frontmatter', 'validate']]
  static override usage = Command.Usage({
    description: 'Check the front matter of a markdown file, or of every page file below a directory',
    details: [
      "Directories are scanned with the same file filter as sync (README files, `.raw/`, `ops/`, hidden and dependency folders and the source's excluded globs are left out; symbolic links are never followed).",
      'Codes: MISSING_OPEN, MISSING_CLOSE, YAML_PARSE, SLUG_MISMATCH, NULL_BYTES, NESTED_QUOTES, EMPTY_FRONTMATTER. --fix repairs NULL_BYTES, MISSING_CLOSE, NESTED_QUOTES and SLUG_MISMATCH: each changed file is first copied to `<file>.bak`, then rewritten in place. --fix only touches files inside a registered source or the brain directory. --dry-run shows what --fix would change.',
      '--lint reports lint findings (rule names such as frontmatter-yaml-parse) and leaves out MISSING_OPEN; the pre-commit hook uses it. Exit code 1 when problems remain.',
    ].join('\n\n'),
    examples: [
      ['Check a folder', '$0 frontmatter validate ~/brain'],
      ['See what --fix would change', '$0 frontmatter validate ~/brain --fix --dry-run'],
      ['Repair a source', '$0 frontmatter validate ~/brain --fix'],
    ],
  })

  files = Option.Rest({ required: 1, name: 'path' })
  fix = Option.Boolean('--fix', false, { description: 'Repair what can be repaired (keeps <file>.bak)' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'With --fix: show the changes, write nothing' })
  lint = Option.Boolean('--lint', false, { description: 'Report lint findings (rule names); MISSING_OPEN is not one' })

  protected async run(): Promise<number> {
    const fm = await import('../../frontmatter/index.js')
    const config = await this.loadConfig()
    const roots = await this.pageRoots(config)
    const targets = []
    for (const path of this.files) targets.push(await fm.resolveTarget(path, this.context.cwd))
    const report = await fm.runValidate({ targets, roots, fix: this.fix, dryRun: this.dryRun })
    this.print(report, () => describeValidate(report, this.lint))
    return hasFailures(report, this.lint) ? 1 : 0
  }

  /**
   * The sources tell each file's expected slug and where --fix may write. Without a brain (or
   * when it cannot be opened) a check still runs, judging slugs by the file path alone.
   */
  private async pageRoots(config: Config): Promise<PageRoot[]> {
    const { brainIsConfigured, loadPageRoots } = await import('../../frontmatter/index.js')
    if (!brainIsConfigured(config)) return []
    try {
      return await this.withBrain(({ db }) => loadPageRoots(db), { noRetryConnect: true })
    } catch (err) {
      if (this.fix) throw err
      const { serializeError } = await import('../../errors/index.js')
      this.context.stderr.write(`brain: could not read the registered sources (${serializeError(err).message}); slugs are checked against file paths only.\n`)
      return []
    }
  }
}

/** Install-hook needs a configured brain and visits its sources (or one). */
abstract class SourcesCommand extends BrainCommand {
  source = Option.String('--source', { description: 'Only this source' })

  protected async visitSources(name: string, fn: (sources: SourceRecord[], roots: PageRoot[]) => Promise<number>): Promise<number> {
    const config = await this.loadConfig()
    const { requireConfiguredBrain, brainIsInUse, noBrainError, loadPageRoots } = await import('../../frontmatter/index.js')
    requireConfiguredBrain(config, name)
    const { listSources, requireSource } = await import('../../intake/sources/source-repository.js')
    const { sources, roots } = await this.withBrain(async ({ db }) => {
      if (!(await brainIsInUse(config, db))) throw noBrainError(config, name)
      return {
        sources: this.source ? [await requireSource(db, this.source)] : await listSources(db),
        roots: await loadPageRoots(db),
      }
    })
    return fn(sources, roots)
  }
}

function describeHooks(results: HookResult[]): string {
  if (results.length === 0) return 'No sources; add one with `brain sources add <id> --path <dir>`.'
  return results.map((r) => `${r.sourceId}: ${r.action.replace(/_/g, ' ')}${r.hookPath ? ` ${r.hookPath}` : ''}${r.note ? ` (${r.note})` : ''}`).join('\n')
}

export class FrontmatterInstallHookCommand extends SourcesCommand {
  static override paths = [['frontmatter', 'install-hook']]
  static override usage = Command.Usage({
    description: 'Install (or remove) a pre-commit hook that checks staged markdown front matter in each git source',
    details: [
      "Sources that are not git repositories are skipped with a note. An existing pre-commit hook that is not brain's is left alone unless --force is given; it is then kept as `pre-commit.bak` (and put back by --uninstall).",
      'The hook runs `brain frontmatter validate --lint` on the staged .md files; when the brain command is not on PATH it prints a warning and lets the commit through.',
    ].join('\n\n'),
    examples: [
      ['Install in every git source', '$0 frontmatter install-hook'],
      ['Replace an existing hook', '$0 frontmatter install-hook --source notes --force'],
      ['Remove it', '$0 frontmatter install-hook --uninstall'],
    ],
  })

  force = Option.Boolean('--force', false, { description: 'Replace an existing hook (kept as pre-commit.bak)' })
  uninstall = Option.Boolean('--uninstall', false, { description: "Remove brain's hook" })

  protected async run(): Promise<number> {
    return this.visitSources('brain frontmatter install-hook', async (sources) => {
      const { installHook, uninstallHook } = await import('../../frontmatter/index.js')
      const results: HookResult[] = []
      for (const source of sources) results.push(this.uninstall ? await uninstallHook(source) : await installHook(source, { force: this.force }))
      this.print({ results }, () => describeHooks(results))
      return results.some((r) => r.action === 'refused') ? 1 : 0
    })
  }
}
