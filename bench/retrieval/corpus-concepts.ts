/** Concept notes: one idea per page, in the owner's words. [slug, title, body] */
export const CONCEPTS: ReadonlyArray<readonly [string, string, string]> = [
  [
    'concepts/consistent-hashing',
    'Consistent hashing',
    'Place every node and every key on a ring of hash values; a key belongs to the first node clockwise. When a node joins or leaves, only the keys between it and its neighbour move. Virtual nodes smooth out the load when there are few physical nodes. Used by Dynamo, Cassandra and most memcached clients.',
  ],
  [
    'concepts/backpressure',
    'Backpressure',
    'When a consumer is slower than its producer, the queue between them grows without bound unless the consumer can push back. Bounded buffers, credit-based flow control and TCP windows are all forms of it. Dropping or blocking are the two honest answers; an unbounded buffer only postpones the crash.',
  ],
  [
    'concepts/cap-theorem',
    'CAP theorem',
    'A replicated store facing a network partition must choose between consistency and availability. Outside a partition the real trade-off is latency versus consistency (PACELC). Most systems that claim CA simply have not met a partition yet.',
  ],
  [
    'concepts/idempotency-keys',
    'Idempotency keys',
    'A client attaches a unique key to a mutating request so the server can recognise a retry and return the stored response instead of charging twice. Keys need an expiry and must be scoped per account. Stripe popularised the header.',
  ],
  [
    'concepts/write-ahead-log',
    'Write-ahead log',
    'Before changing a page on disk, the engine appends a record of the change to a sequential log and flushes it. After a crash, replaying the log restores committed transactions. Postgres calls it WAL; it also feeds streaming replication and point-in-time recovery.',
  ],
  [
    'concepts/bloom-filter',
    'Bloom filter',
    'A bit array plus k hash functions answers "definitely not present" or "probably present". False positives are tunable by size; there are no false negatives. LSM trees keep one per SSTable to skip files during point lookups.',
  ],
  [
    'concepts/lsm-tree',
    'LSM tree',
    'Writes go to an in-memory memtable, which is flushed as an immutable sorted file. Background compaction merges sorted runs so reads touch fewer files. Great write throughput, at the cost of read and space amplification. RocksDB and LevelDB are the usual examples.',
  ],
  [
    'concepts/raft',
    'Raft consensus',
    'A leader is elected by majority vote with randomised timeouts; it appends entries to followers and commits once a majority has them. Terms fence off stale leaders. Easier to reason about than Paxos, which is why etcd and Consul use it.',
  ],
  [
    'concepts/vector-clocks',
    'Vector clocks',
    'Each replica keeps a counter per replica; comparing two vectors tells whether one event happened before another or whether they are concurrent. Concurrent siblings must be merged by the application. Riak exposed them to users, which confused many.',
  ],
  [
    'concepts/circuit-breaker',
    'Circuit breaker',
    'After a run of failures calling a dependency, stop calling it for a cool-down period and fail fast; then let one trial request through (half-open). Protects threads and gives the dependency room to recover. Pair it with timeouts, never without.',
  ],
  [
    'concepts/exponential-backoff',
    'Exponential backoff with jitter',
    'Retry after base × 2^attempt, capped, with random jitter so that thousands of clients do not retry in lockstep. Full jitter (a random delay between zero and the cap) performs best in the AWS analysis. Always bound the number of attempts.',
  ],
  [
    'concepts/tf-idf',
    'TF-IDF',
    'Term frequency times inverse document frequency: a word matters in a document if it is frequent there and rare elsewhere. BM25 adds saturation and length normalisation. Still a strong baseline for lexical retrieval.',
  ],
  [
    'concepts/embeddings',
    'Text embeddings',
    'A model maps a passage to a dense vector so that passages with similar meaning land close together, usually compared by cosine similarity. Good for paraphrases; weak for exact identifiers, rare names and numbers, which is why lexical and dense retrieval are combined.',
  ],
  [
    'concepts/reciprocal-rank-fusion',
    'Reciprocal rank fusion',
    'Combine ranked lists by summing 1/(k + rank) for each document; k = 60 is the classic constant. Needs no score calibration, which makes it the default way to merge BM25 and dense results.',
  ],
  [
    'concepts/hnsw',
    'HNSW index',
    'Hierarchical navigable small world graphs: a layered proximity graph searched greedily from a sparse top layer down. ef_search trades recall for latency; m sets the graph degree. pgvector, Lucene and FAISS all implement it.',
  ],
  [
    'concepts/event-sourcing',
    'Event sourcing',
    'Store the sequence of domain events instead of the current state; the state is a fold over the events. Audit trails come for free, schema evolution of old events does not. Snapshots keep replays short.',
  ],
  [
    'concepts/cqrs',
    'CQRS',
    'Command query responsibility segregation: writes go through a model optimised for invariants, reads through projections optimised for queries. Often paired with event sourcing, but does not require it.',
  ],
  [
    'concepts/two-phase-commit',
    'Two-phase commit',
    'A coordinator asks every participant to prepare, then tells them all to commit. A coordinator crash between the phases leaves participants blocked holding locks, which is why sagas are preferred across services.',
  ],
  [
    'concepts/saga-pattern',
    'Saga pattern',
    "A long business transaction split into local steps, each with a compensating action that undoes it. Orchestrated sagas have a central coordinator; choreographed ones react to each other's events.",
  ],
  [
    'concepts/rate-limiting',
    'Rate limiting',
    'Token bucket: tokens refill at a fixed rate up to a burst size, and each request spends one. Leaky bucket smooths output instead. Sliding-window counters are a cheap approximation for per-minute quotas.',
  ],
  [
    'concepts/cache-invalidation',
    'Cache invalidation',
    'Time-to-live expiry, explicit purge on write, or versioned keys. Write-through keeps the cache warm; cache-aside is simplest. The thundering herd after an expiry is tamed with request coalescing or early probabilistic refresh.',
  ],
  [
    'concepts/mvcc',
    'MVCC',
    'Multi-version concurrency control keeps old row versions so readers never block writers. Postgres stores versions in the heap and needs VACUUM to reclaim dead tuples; InnoDB keeps undo logs instead.',
  ],
  [
    'concepts/sharding',
    'Sharding',
    'Split a table horizontally by a shard key so that each database holds a slice. Choose a key with high cardinality and even access; range keys create hot spots, hash keys make range scans expensive. Resharding is the hard part.',
  ],
  [
    'concepts/zettelkasten',
    'Zettelkasten',
    'Atomic notes, each with a permanent identifier and links to related notes; structure emerges from links rather than folders. Luhmann kept about ninety thousand index cards this way.',
  ],
  [
    'concepts/spaced-repetition',
    'Spaced repetition',
    'Review a flashcard just before you would forget it; intervals grow after each successful recall. SM-2, the algorithm behind Anki, adjusts an ease factor per card.',
  ],
  [
    'concepts/pomodoro',
    'Pomodoro technique',
    'Twenty-five minutes of focused work, then a five-minute break; a longer break after four rounds. Works for me on tasks I am avoiding, not on deep design work.',
  ],
  [
    'concepts/second-order-thinking',
    'Second-order thinking',
    'Ask "and then what?" about a decision: the first consequence is obvious, the ones after it decide the outcome. Useful against incentives that backfire.',
  ],
  ['concepts/okrs', 'OKRs', 'Objectives are qualitative and ambitious; key results are measurable and should be about seventy percent attainable. Grading them as performance reviews ruins them.'],
  [
    'concepts/little-law',
    "Little's law",
    'Average number of items in a system equals arrival rate times average time in the system. Handy for sizing thread pools and connection pools: 200 requests per second at 50 ms each keeps about ten busy.',
  ],
  [
    'concepts/amdahl-law',
    "Amdahl's law",
    'The speedup from parallelising is limited by the serial fraction: with five percent serial work, no number of processors gives more than twenty times. A reminder to measure before adding cores.',
  ],
]
