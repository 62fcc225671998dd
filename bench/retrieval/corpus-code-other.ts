/** Python, Go and Rust source files. [path, content] */
export const OTHER_FILES: ReadonlyArray<readonly [string, string]> = [
  [
    'scripts/dedupe_photos.py',
    `"""Find duplicate photos by perceptual hash and move the copies aside."""
import hashlib
from pathlib import Path


def file_digest(path: Path) -> str:
    """SHA-256 of the file contents, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def find_duplicates(root: Path) -> dict[str, list[Path]]:
    """Groups image files under root by digest; groups with more than one file are duplicates."""
    groups: dict[str, list[Path]] = {}
    for path in root.rglob("*.jpg"):
        groups.setdefault(file_digest(path), []).append(path)
    return {k: v for k, v in groups.items() if len(v) > 1}
`,
  ],
  [
    'scripts/budget_report.py',
    `"""Monthly budget report from a bank CSV export."""
import csv
from collections import defaultdict


def load_transactions(path):
    """Reads date, description, amount rows; amounts are negative for spending."""
    with open(path, newline="") as f:
        return [dict(row, amount=float(row["amount"])) for row in csv.DictReader(f)]


def spending_by_category(transactions, rules):
    """Sums spending per category; rules map a substring of the description to a category."""
    totals = defaultdict(float)
    for t in transactions:
        category = next((c for needle, c in rules.items() if needle in t["description"].lower()), "other")
        if t["amount"] < 0:
            totals[category] += -t["amount"]
    return dict(totals)
`,
  ],
  [
    'scripts/fetch_weather.py',
    `"""Pull the hourly forecast and decide whether to water the garden."""
import json
import urllib.request


def hourly_forecast(lat, lon):
    url = f"https://api.open-meteo.com/v1/forecast?latitude={lat}&longitude={lon}&hourly=precipitation"
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)["hourly"]


def should_water(forecast, threshold_mm=2.0):
    """Skip watering when at least threshold_mm of rain is expected in the next 24 hours."""
    return sum(forecast["precipitation"][:24]) < threshold_mm
`,
  ],
  [
    'ml/train_ranker.py',
    `"""Train a learning-to-rank model on click logs with LightGBM's lambdarank objective."""
import lightgbm as lgb
import numpy as np


def build_groups(query_ids):
    """LightGBM needs the size of each query group, in order."""
    _, counts = np.unique(query_ids, return_counts=True)
    return counts


def train(features, labels, query_ids):
    model = lgb.LGBMRanker(objective="lambdarank", n_estimators=300, learning_rate=0.05)
    model.fit(features, labels, group=build_groups(query_ids))
    return model


def ndcg_at_k(relevances, k=10):
    """Normalised discounted cumulative gain of one ranked list of graded relevances."""
    rel = np.asarray(relevances, dtype=float)[:k]
    discounts = 1 / np.log2(np.arange(2, rel.size + 2))
    ideal = np.sort(rel)[::-1]
    return float((rel * discounts).sum() / max((ideal * discounts).sum(), 1e-9))
`,
  ],
  [
    'ml/embed_corpus.py',
    `"""Embed a folder of markdown notes with a sentence-transformer and store vectors in pgvector."""
from pathlib import Path

import psycopg
from sentence_transformers import SentenceTransformer


def chunks(text, size=800):
    """Split on blank lines, then pack paragraphs up to size characters."""
    out, current = [], ""
    for para in text.split("\\n\\n"):
        if len(current) + len(para) > size and current:
            out.append(current)
            current = ""
        current += para + "\\n\\n"
    return out + ([current] if current else [])


def embed_folder(folder, dsn):
    model = SentenceTransformer("all-MiniLM-L6-v2")
    with psycopg.connect(dsn) as conn:
        for path in Path(folder).glob("**/*.md"):
            for i, chunk in enumerate(chunks(path.read_text())):
                vector = model.encode(chunk).tolist()
                conn.execute("INSERT INTO chunks (path, idx, body, embedding) VALUES (%s, %s, %s, %s)", (str(path), i, chunk, vector))
`,
  ],
  [
    'scripts/anki_export.py',
    `"""Turn highlighted book quotes into Anki flashcards (question on the front, quote on the back)."""
import csv


def cards_from_highlights(rows):
    for row in rows:
        front = f"Who wrote: {row['quote'][:80]}…?"
        yield {"front": front, "back": f"{row['author']}, {row['book']}"}


def write_deck(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["front", "back"], delimiter="\\t")
        writer.writerows(cards_from_highlights(rows))
`,
  ],
  [
    'cmd/backup/main.go',
    `package main

import (
	"fmt"
	"os/exec"
	"time"
)

// snapshotName names a ZFS snapshot after the dataset and the current UTC minute.
func snapshotName(dataset string, now time.Time) string {
	return fmt.Sprintf("%s@auto-%s", dataset, now.UTC().Format("2006-01-02T15-04"))
}

// snapshotAndSend takes a snapshot and streams it to the offsite host over ssh.
func snapshotAndSend(dataset, host string) error {
	name := snapshotName(dataset, time.Now())
	if err := exec.Command("zfs", "snapshot", name).Run(); err != nil {
		return fmt.Errorf("snapshot %s: %w", name, err)
	}
	cmd := exec.Command("sh", "-c", fmt.Sprintf("zfs send %s | ssh %s zfs receive -F backup/%s", name, host, dataset))
	return cmd.Run()
}

func main() {
	if err := snapshotAndSend("tank/photos", "offsite.example"); err != nil {
		panic(err)
	}
}
`,
  ],
  [
    'internal/ring/ring.go',
    `package ring

import (
	"hash/crc32"
	"sort"
	"strconv"
)

// Ring maps keys to nodes with consistent hashing and virtual nodes.
type Ring struct {
	hashes []uint32
	owner  map[uint32]string
}

// New places each node on the ring \`replicas\` times.
func New(nodes []string, replicas int) *Ring {
	r := &Ring{owner: map[uint32]string{}}
	for _, n := range nodes {
		for i := 0; i < replicas; i++ {
			h := crc32.ChecksumIEEE([]byte(n + "#" + strconv.Itoa(i)))
			r.hashes = append(r.hashes, h)
			r.owner[h] = n
		}
	}
	sort.Slice(r.hashes, func(i, j int) bool { return r.hashes[i] < r.hashes[j] })
	return r
}

// Lookup returns the first node clockwise from the key's hash.
func (r *Ring) Lookup(key string) string {
	h := crc32.ChecksumIEEE([]byte(key))
	i := sort.Search(len(r.hashes), func(i int) bool { return r.hashes[i] >= h })
	if i == len(r.hashes) {
		i = 0
	}
	return r.owner[r.hashes[i]]
}
`,
  ],
  [
    'internal/health/health.go',
    `package health

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"time"
)

// Handler answers 200 when the database responds within two seconds, 503 otherwise.
func Handler(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		status, code := "ok", http.StatusOK
		if err := db.PingContext(ctx); err != nil {
			status, code = "unhealthy", http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"status": status})
	}
}
`,
  ],
  [
    'internal/shutdown/shutdown.go',
    `package shutdown

import (
	"context"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Graceful stops accepting connections on SIGTERM and waits up to 30 seconds for in-flight requests.
func Graceful(server *http.Server) error {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return server.Shutdown(ctx)
}
`,
  ],
  [
    'crates/bloom/src/lib.rs',
    `//! A Bloom filter with double hashing: k probe positions from two 64-bit hashes.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

pub struct Bloom {
    bits: Vec<u64>,
    k: u32,
}

impl Bloom {
    /// Sizes the filter for \`n\` items at false-positive rate \`p\`.
    pub fn with_rate(n: usize, p: f64) -> Self {
        let m = (-(n as f64) * p.ln() / (2f64.ln().powi(2))).ceil() as usize;
        let k = ((m as f64 / n as f64) * 2f64.ln()).round().max(1.0) as u32;
        Bloom { bits: vec![0; (m + 63) / 64], k }
    }

    fn probes<T: Hash>(&self, item: &T) -> impl Iterator<Item = usize> + '_ {
        let mut h1 = DefaultHasher::new();
        item.hash(&mut h1);
        let a = h1.finish();
        let b = a.rotate_left(32) | 1;
        let m = self.bits.len() * 64;
        (0..self.k).map(move |i| (a.wrapping_add(b.wrapping_mul(i as u64)) % m as u64) as usize)
    }

    pub fn insert<T: Hash>(&mut self, item: &T) {
        for bit in self.probes(item).collect::<Vec<_>>() {
            self.bits[bit / 64] |= 1 << (bit % 64);
        }
    }

    /// False means definitely absent; true means probably present.
    pub fn contains<T: Hash>(&self, item: &T) -> bool {
        self.probes(item).all(|bit| self.bits[bit / 64] & (1 << (bit % 64)) != 0)
    }
}
`,
  ],
  [
    'crates/wal/src/lib.rs',
    `//! Append-only write-ahead log with a CRC per record, replayed on startup.
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};

pub struct Wal {
    file: File,
}

impl Wal {
    pub fn open(path: &str) -> io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Wal { file })
    }

    /// Appends one record and fsyncs before returning, so a crash after commit loses nothing.
    pub fn append(&mut self, record: &str) -> io::Result<()> {
        let crc = crc32fast::hash(record.as_bytes());
        writeln!(self.file, "{:08x} {}", crc, record)?;
        self.file.sync_data()
    }

    /// Yields records in order, stopping at the first torn or corrupt line.
    pub fn replay(path: &str) -> io::Result<Vec<String>> {
        let reader = BufReader::new(File::open(path)?);
        let mut out = Vec::new();
        for line in reader.lines() {
            let line = line?;
            let (crc, body) = match line.split_once(' ') { Some(p) => p, None => break };
            if u32::from_str_radix(crc, 16).ok() != Some(crc32fast::hash(body.as_bytes())) { break }
            out.push(body.to_string());
        }
        Ok(out)
    }
}
`,
  ],
]
