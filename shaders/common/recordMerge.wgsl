// Adding a record into a component's record, by the rule of common/record.wgsl (include that first): its field
// lists, looped over in both address spaces. Needs `records`, the storage records as array<atomic<u32>>, and
// MERGE_Y0: false where the record merged into already holds the component's first row (components.wgsl), which
// spares a contended atomic per merge. Large components would have every workgroup add into one record: a
// workgroup first adds the records of its CANDIDATES (its likeliest components) into workgroup memory, and each
// candidate's sum reaches `records` with one set of global atomics. WGSL cannot pass pointers to storage and
// workgroup atomics to one function, so each address space has its merge. (Short loops over the lists compile to
// straight code; one loop over all fields with a switch per field does not, and slows the resolve kernel and the
// run-piece features pass: docs/history/benchmarks-2026-11.md.)
const CANDIDATES: u32 = 4u;
var<workgroup> candidate: array<atomic<u32>, CANDIDATES>;
var<workgroup> wgRecord: array<atomic<u32>, CANDIDATES * REC>;

// Adds d into the record at records[at..at+REC).
fn addRecord(at: u32, d: array<u32, REC>) {
  for (var k = 0u; k < 6u; k++) {
    let f = SUMS64[k];
    let old = atomicAdd(&records[at + f], d[f]);
    let hi = d[f + 1u] + select(0u, 1u, old + d[f] < old);
    if (hi != 0u) { atomicAdd(&records[at + f + 1u], hi); }
  }
  for (var k = 0u; k < 2u; k++) { let f = SUMS[k]; if (d[f] != 0u) { atomicAdd(&records[at + f], d[f]); } }
  for (var k = 0u; k < 3u; k++) { let f = MINS[k]; if (f != Y0 || MERGE_Y0) { atomicMin(&records[at + f], d[f]); } }
  for (var k = 0u; k < 3u; k++) { let f = MAXS[k]; atomicMax(&records[at + f], d[f]); }
}

// Adds d into candidate k's workgroup record.
fn addShared(k: u32, d: array<u32, REC>) {
  let at = k * REC;
  for (var j = 0u; j < 6u; j++) {
    let f = SUMS64[j];
    let old = atomicAdd(&wgRecord[at + f], d[f]);
    let hi = d[f + 1u] + select(0u, 1u, old + d[f] < old);
    if (hi != 0u) { atomicAdd(&wgRecord[at + f + 1u], hi); }
  }
  for (var j = 0u; j < 2u; j++) { let f = SUMS[j]; if (d[f] != 0u) { atomicAdd(&wgRecord[at + f], d[f]); } }
  for (var j = 0u; j < 3u; j++) { let f = MINS[j]; if (f != Y0 || MERGE_Y0) { atomicMin(&wgRecord[at + f], d[f]); } }
  for (var j = 0u; j < 3u; j++) { let f = MAXS[j]; atomicMax(&wgRecord[at + f], d[f]); }
}

// Sets the candidates' workgroup records to identity (the first CANDIDATES * REC invocations, one word each).
fn clearShared(li: u32) {
  if (li < CANDIDATES * REC) { atomicStore(&wgRecord[li], identity(li % REC)); }
}

// Candidate k's workgroup record.
fn sharedRecord(k: u32) -> array<u32, REC> {
  var d: array<u32, REC>;
  for (var f = 0u; f < REC; f++) { d[f] = atomicLoad(&wgRecord[k * REC + f]); }
  return d;
}

// Candidate k is set, seen for the first time among the candidates, and has something to add.
fn flushesCandidate(k: u32, none: u32) -> bool {
  let c = atomicLoad(&candidate[k]);
  if (c == none || atomicLoad(&wgRecord[k * REC + AREA]) == 0u) { return false; }
  for (var j = 0u; j < k; j++) { if (atomicLoad(&candidate[j]) == c) { return false; } }
  return true;
}
