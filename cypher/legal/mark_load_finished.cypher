// purpose: Record that the derive steps of the legal graph committed; runs in their transaction, so the mark and the derived graph commit together.
// mode: write
// returns: -
MERGE (s:LoadState {id: 'legal'})
ON CREATE SET s.started_at = datetime()
SET s.finished_at = datetime()
