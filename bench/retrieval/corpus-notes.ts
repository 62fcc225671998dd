/** People, projects, essays and personal notes. [slug, title, body] */
export const PEOPLE: ReadonlyArray<readonly [string, string, string]> = [
  [
    'people/ada-okafor',
    'Ada Okafor',
    'Staff engineer at Northwind, owns their billing platform. Met at the Lisbon infra meetup. Strong opinions on idempotent payment APIs; prefers email over chat. Her daughter plays competitive chess.',
  ],
  [
    'people/bruno-keller',
    'Bruno Keller',
    'Runs the data team at Tessellate. Migrated their warehouse from Redshift to Snowflake in 2023. Cyclist; we ride together on Sunday mornings when he is in town.',
  ],
  [
    'people/chen-wei',
    'Chen Wei',
    'Former colleague from the search team. Expert in learning-to-rank and click models. Now a research scientist; happy to review papers. Lives in Singapore, eight hours ahead.',
  ],
  ['people/dana-ross', 'Dana Ross', 'Product manager for the mobile app. Cares about onboarding funnels and retention cohorts. Birthday in March. Allergic to peanuts — remember for team dinners.'],
  ['people/elif-yilmaz', 'Elif Yilmaz', 'Security lead. Ran our SOC 2 audit and the pentest with an external firm. Ask her before adding any new OAuth scope. Plays the oud.'],
  ['people/felix-baptiste', 'Felix Baptiste', 'Founder of a small bakery downtown; supplied the sourdough starter I still use. Swaps recipes for help with his website.'],
  ['people/grace-lindqvist', 'Grace Lindqvist', 'My mentor from the first job. Taught me to write design docs with explicit non-goals. Retired to Gotland; we call every quarter.'],
  ['people/hiro-tanaka', 'Hiro Tanaka', 'SRE at a streaming company; knows Kubernetes autoscaling inside out. Gave the talk on pod disruption budgets. Trades bonsai tips.'],
  ['people/isabel-moreno', 'Isabel Moreno', 'Landlord of the flat. Contract renews every September; she prefers bank transfer on the first of the month. Her plumber is Tomás.'],
  ['people/jonas-berg', 'Jonas Berg', 'Accountant who files my taxes. Needs receipts grouped by quarter and the home-office square metres. Deadline reminders go out in February.'],
  ['people/kemi-adeyemi', 'Kemi Adeyemi', 'Designer; built our component library and the dark theme. Advocates accessible colour contrast and keyboard navigation everywhere.'],
  ['people/lars-nilsen', 'Lars Nilsen', 'Database consultant we hired for the Postgres upgrade. Tuned autovacuum and found the bloated indexes. Charges by the day, invoices monthly.'],
  ['people/maya-patel', 'Maya Patel', 'Running coach. Plans my marathon block: easy miles, tempo on Tuesdays, long run on Saturdays. Insists on two rest days.'],
  ['people/noah-fischer', 'Noah Fischer', 'Junior engineer I mentor. Working on his first on-call rotation; nervous about incidents. We pair on Thursdays.'],
  ['people/olga-ivanova', 'Olga Ivanova', 'Translator for the Russian edition of the handbook. Meticulous about terminology; keeps a glossary spreadsheet.'],
]

export const PROJECTS: ReadonlyArray<readonly [string, string, string]> = [
  [
    'projects/search-revamp',
    'Search revamp',
    'Goal: replace the Elasticsearch cluster with Postgres full text plus pgvector. Decision: hybrid ranking with reciprocal rank fusion; keep BM25-style ranking for exact identifiers. Status: shadow traffic since May, nDCG up four points.',
  ],
  [
    'projects/billing-migration',
    'Billing migration',
    "Move invoicing from the legacy monolith to the new billing service. Idempotency keys on every charge endpoint; dual-write for one month, then cut over. Owner: Ada's team advises.",
  ],
  [
    'projects/mobile-onboarding',
    'Mobile onboarding',
    'Shorten signup from seven screens to three. Experiment showed a twelve percent lift in day-seven retention. Next: social login and deferred permissions.',
  ],
  [
    'projects/kitchen-renovation',
    'Kitchen renovation',
    'New countertops in oak, induction hob, move the sink under the window. Budget 18k; contractor starts in April. Order the extractor hood six weeks ahead.',
  ],
  ['projects/garden-beds', 'Raised garden beds', 'Three cedar beds, 1.2 by 2.4 metres, drip irrigation on a timer. Tomatoes and basil in the sunny one, leafy greens in partial shade.'],
  ['projects/home-lab', 'Home lab', 'Three mini PCs running Proxmox, a NAS with ZFS mirrors, and Tailscale for remote access. Backups to an offsite bucket every night.'],
  ['projects/marathon-2024', 'Marathon 2024', 'Target: sub 3:30 in Berlin in September. Sixteen-week plan from Maya, peak week 80 km. Gels every 40 minutes; test them on long runs.'],
  [
    'projects/observability',
    'Observability rollout',
    'OpenTelemetry traces for every service, RED metrics dashboards, and alerts on symptoms rather than causes. Sampling: tail-based, keep all errors.',
  ],
  ['projects/incident-process', 'Incident process', 'Severity levels, an incident commander role, a status page template and blameless postmortems within five working days.'],
  ['projects/handbook-translation', 'Handbook translation', 'Translate the engineering handbook into Russian and Spanish. Olga handles Russian; glossary first, then chapters in order.'],
]

export const WRITING: ReadonlyArray<readonly [string, string, string]> = [
  [
    'originals/on-boring-technology',
    'On boring technology',
    'Every new tool spends an innovation token. Postgres, a queue and a cron job carry most companies further than they expect. I choose novelty only where it is the product.',
  ],
  [
    'originals/writing-design-docs',
    'Writing design docs',
    'State the problem, the non-goals, the options you rejected and why. Reviewers should be able to disagree with a specific paragraph. A doc nobody argues with was not read.',
  ],
  [
    'originals/notes-that-compound',
    'Notes that compound',
    'A note is worth writing when future me can find it and act on it. Links beat folders; summaries beat highlights; a weekly review keeps the garden weeded.',
  ],
  [
    'writing/on-call-without-burnout',
    'On-call without burnout',
    'Pages must be actionable; anything else is a ticket. Follow-the-sun rotations, a paid day off after a rough night, and runbooks linked from every alert.',
  ],
  [
    'writing/hiring-loops',
    'Hiring loops',
    'Structured interviews with written rubrics, one question per competency, and a debrief where the most junior person speaks first. Work samples over puzzles.',
  ],
  [
    'writing/learning-rust',
    'Learning Rust',
    'The borrow checker felt like an adversary for two weeks and a pair programmer after that. Ownership made me rethink shared mutable state in every language.',
  ],
]

export const PERSONAL: ReadonlyArray<readonly [string, string, string]> = [
  [
    'notes/sourdough',
    'Sourdough routine',
    'Feed the starter 1:5:5 the night before. Mix 500 g flour, 375 g water, 100 g levain, 10 g salt. Four sets of stretch and folds, bulk until risen by half, shape, cold proof overnight, bake at 250 °C in a Dutch oven.',
  ],
  ['notes/ramen-broth', 'Ramen broth', 'Pork bones blanched, then a hard boil for twelve hours for tonkotsu. Tare: soy, mirin, kombu. Marinated eggs need six and a half minutes.'],
  [
    'notes/tomato-blight',
    'Tomato blight',
    'Brown patches on lower leaves spreading upward: early blight. Remove affected foliage, water at the base, mulch, and rotate the bed next year. Copper spray only as a last resort.',
  ],
  [
    'notes/lisbon-trip',
    'Lisbon trip',
    'Stayed in Alfama. Tram 28 early morning before the crowds; pastéis de nata at Manteigaria; day trip to Sintra by train. Bring comfortable shoes for the hills.',
  ],
  ['notes/kyoto-trip', 'Kyoto trip', "Fushimi Inari at dawn, the philosopher's path in the afternoon, kaiseki dinner in Gion. Buy the ICOCA card at the station. Temples close at five."],
  ['notes/sleep-hygiene', 'Sleep hygiene', 'Same wake time every day, no screens the last hour, bedroom at eighteen degrees, caffeine only before noon. Magnesium glycinate helped a little.'],
  [
    'notes/knee-physio',
    'Knee physiotherapy',
    'Patellofemoral pain after long runs. Exercises: clamshells, single-leg bridges, step-downs, three sets of fifteen daily. Ice after runs; reduce mileage by a third.',
  ],
  ['notes/reading-list', 'Reading list', 'Designing Data-Intensive Applications (reread chapter 9), The Pragmatic Programmer, Thinking in Systems, Four Thousand Weeks, The Mom Test.'],
  ['notes/ddia-chapter-5', 'DDIA notes: replication', 'Single-leader, multi-leader and leaderless replication. Read-your-writes needs routing to the leader or a version check. Quorums w + r > n.'],
  ['notes/tax-checklist', 'Tax checklist', 'Collect invoices, bank statements, pension contributions, charitable receipts and the home-office measurements for Jonas by the end of February.'],
  ['notes/bike-maintenance', 'Bike maintenance', 'Clean and lube the chain every 300 km, check tyre pressure weekly (5.5 bar road), replace brake pads when the groove disappears.'],
  ['notes/coffee-brewing', 'Coffee brewing', 'V60: 15 g coffee to 250 g water at 94 °C, 45-second bloom, total three minutes. Grind finer if it drains fast and tastes sour.'],
  [
    'notes/apartment-move',
    'Apartment move',
    'Give notice three months ahead, book the van, forward the mail, update the address with the bank and the tax office, read the electricity meter on the last day.',
  ],
  ['notes/guitar-practice', 'Guitar practice', 'Ten minutes of scales with a metronome, then chord changes G–C–D, then one song. Calluses finally stopped hurting after week three.'],
]
