// purpose: Record that a legal load begins writing documents: finished_at stays null until its derive steps commit (legal/mark_load_finished).
// mode: write
// param documents: int -- documents the load sets out to write
// returns: -
MERGE (s:LoadState {id: 'legal'})
SET s.started_at = datetime(), s.finished_at = null, s.documents = $documents
