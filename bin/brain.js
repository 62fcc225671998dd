#!/usr/bin/env node
import '../dist/src/service/entry.js'
