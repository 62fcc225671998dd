"""Nightly backup of the photo library to the NAS."""
import subprocess
from pathlib import Path

SOURCE = Path.home() / "Pictures"
TARGET = "nas:/volume1/photos"


def run_backup(dry_run: bool = False) -> int:
    """Mirror the photo library to the NAS with rsync; returns rsync's exit code."""
    args = ["rsync", "-a", "--checksum", "--delete", f"{SOURCE}/", TARGET]
    if dry_run:
        args.insert(1, "--dry-run")
    return subprocess.run(args, check=False).returncode


class BackupReport:
    """Summarises what a backup run copied."""

    def __init__(self, copied: int, skipped: int) -> None:
        self.copied = copied
        self.skipped = skipped

    def line(self) -> str:
        return f"copied {self.copied}, unchanged {self.skipped}"
