// purpose: Benchmark-side writer (generated corpora): upsert AMENDS, REPEALS and REFERS_TO edges between existing units.
// mode: write
// param rows: list<map> -- {rel ('AMENDS'|'REPEALS'|'REFERS_TO'), src, dst, effective_date}
// returns: written
UNWIND $rows AS row
MATCH (a:LegalNode {id: row.src})
MATCH (b:LegalNode {id: row.dst})
FOREACH (_ IN CASE WHEN row.rel = 'AMENDS' THEN [1] ELSE [] END |
  MERGE (a)-[r:AMENDS]->(b) SET r.method = 'generated', r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.rel = 'REPEALS' THEN [1] ELSE [] END |
  MERGE (a)-[r:REPEALS]->(b) SET r.method = 'generated', r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.rel = 'REFERS_TO' THEN [1] ELSE [] END |
  MERGE (a)-[r:REFERS_TO]->(b) SET r.method = 'generated')
RETURN count(*) AS written
