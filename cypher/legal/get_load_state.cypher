// purpose: The state of the last legal load: unfinished when it started writing documents and its derive steps never committed (killed in between).
// mode: read
// returns: started_at, finished_at, documents, unfinished
// rows: plain
OPTIONAL MATCH (s:LoadState {id: 'legal'})
RETURN s.started_at AS started_at, s.finished_at AS finished_at, s.documents AS documents,
       s IS NOT NULL AND s.finished_at IS NULL AS unfinished
