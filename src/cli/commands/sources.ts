import { Command, Option } from 'clipanion'
import type { Usage } from 'clipanion'
import { sourceLine as describe } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'

const DEPRECATION = 'brain: `brain repos` is deprecated and will be removed; use `brain sources` (same subcommands and flags).\n'

/** Shared by `sources …` and the deprecated `repos …` spelling, which also warns on stderr. */
abstract class SourcesCommand extends BrainCommand {
  protected warnIfDeprecated(): void {
    if (this.path[0] === 'repos') this.context.stderr.write(DEPRECATION)
  }
}

export class SourcesAddCommand extends SourcesCommand {
  static override paths = [['sources', 'add']]
  static override usage: Usage | undefined = Command.Usage({
    description: 'Register a directory as a source that `brain sync` imports from',
    details:
      'The strategy picks the files: markdown (default; *.md without README files, .raw/ and ops/), code (every supported language) or auto (both). --include and --exclude take globs where `**/` matches zero or more directories, `*` any characters but `/`, and `?` one character but `/`; they are kept in the source config. --no-sync keeps the source out of `sync --all`.',
    examples: [
      ['Notes', '$0 sources add notes --path ~/notes'],
      ['A code repository without tests', '$0 sources add app --path ~/src/app --strategy code --exclude "**/test/**"'],
    ],
  })
  id = Option.String({ required: true })
  localPath = Option.String('--path', { required: true, description: 'The working directory (a git repository) to sync from' })
  name = Option.String('--name', { description: 'Display name (default: the id)' })
  strategy = Option.String('--strategy', 'markdown', { description: 'markdown, code or auto' })
  include = Option.Array('--include', [], { description: 'Only paths matching this glob (repeatable)' })
  exclude = Option.Array('--exclude', [], { description: 'Skip paths matching this glob (repeatable)' })
  sync = Option.Boolean('--sync', true, { description: '--no-sync: leave this source out of `sync --all`' })

  protected async run(): Promise<number> {
    this.warnIfDeprecated()
    const { parseSyncStrategy } = await import('../../intake/sources/file-filter.js')
    const strategy = parseSyncStrategy(this.strategy)
    const { canonicalDir } = await import('../../intake/sync/target.js')
    const { isGitWorkTree } = await import('../../intake/sync/git.js')
    const { insertSource } = await import('../../intake/sources/source-repository.js')
    const localPath = await canonicalDir(this.resolvePath(this.localPath))
    const source = await this.withBrain(({ db }) => insertSource(db, { id: this.id, name: this.name, localPath, strategy, include: this.include, exclude: this.exclude, syncEnabled: this.sync }))
    if (!(await isGitWorkTree(localPath)) && !this.jsonMode) {
      this.context.stderr.write(`brain: warning: ${localPath} is not a git repository; sync follows commits, so commit the files before syncing.\n`)
    }
    this.print(source, () => `added ${describe(source)}`)
    return 0
  }
}

export class SourcesRemoveCommand extends SourcesCommand {
  static override paths = [['sources', 'remove']]
  static override usage: Usage | undefined = Command.Usage({
    description: "Remove a source; its pages move to the trash (with their chunks, tags and links); other sources' pages are untouched",
    details:
      'The files on disk are not touched. Refused while a sync of the source runs. The `default` source cannot be removed. To undo, add the source again with the same id and restore its pages with `brain trash restore`.',
  })
  id = Option.String({ required: true })

  protected async run(): Promise<number> {
    this.warnIfDeprecated()
    const { removeSource } = await import('../../intake/sync/remove-source.js')
    const removed = await this.withBrain(({ db }) => removeSource(db, this.id))
    this.print(removed, () => `removed source ${removed.id}; its ${removed.trashed} page${removed.trashed === 1 ? '' : 's'} moved to the trash (brain trash list)`)
    return 0
  }
}

export class SourcesSetCommand extends SourcesCommand {
  static override paths = [['sources', 'set']]
  static override usage: Usage | undefined = Command.Usage({
    description: "Change a source's name, strategy, globs or whether `sync --all` visits it; its pages stay",
    details:
      'Options not given keep their value; --include and --exclude replace the whole list (--clear-globs empties both). A changed strategy or glob list makes the next sync walk the whole tree, so pages are added or removed to match.',
    examples: [
      ['Leave a source out of sync --all', '$0 sources set archive --no-sync'],
      ['Also import code', '$0 sources set notes --strategy auto'],
    ],
  })
  id = Option.String({ required: true })
  name = Option.String('--name', { description: 'New display name' })
  strategy = Option.String('--strategy', { description: 'markdown, code or auto' })
  include = Option.Array('--include', { description: 'Replace the include globs (repeatable)' })
  exclude = Option.Array('--exclude', { description: 'Replace the exclude globs (repeatable)' })
  clearGlobs = Option.Boolean('--clear-globs', false, { description: 'Remove every include and exclude glob' })
  sync = Option.Boolean('--sync', { description: '--sync / --no-sync: whether `sync --all` visits this source' })

  protected async run(): Promise<number> {
    this.warnIfDeprecated()
    const { parseSyncStrategy } = await import('../../intake/sources/file-filter.js')
    const strategy = this.strategy === undefined ? undefined : parseSyncStrategy(this.strategy)
    const { updateSource } = await import('../../intake/sources/source-repository.js')
    const source = await this.withBrain(({ db }) =>
      updateSource(db, this.id, {
        name: this.name,
        strategy,
        include: this.clearGlobs ? [] : this.include,
        exclude: this.clearGlobs ? [] : this.exclude,
        syncEnabled: this.sync,
      }),
    )
    this.print(source, () => `updated ${describe(source)}`)
    return 0
  }
}

/* The deprecated `brain repos …` spelling: hidden from help (no usage), same behaviour plus a warning. */
export class ReposAddCommand extends SourcesAddCommand {
  static override paths = [['repos', 'add']]
  static override usage: Usage | undefined = undefined
}

export class ReposSetCommand extends SourcesSetCommand {
  static override paths = [['repos', 'set']]
  static override usage: Usage | undefined = undefined
}

export class ReposRemoveCommand extends SourcesRemoveCommand {
  static override paths = [['repos', 'remove']]
  static override usage: Usage | undefined = undefined
}
