// purpose: Attach units inserted by an amendment (Điều 12a after Điều 12) to the parent of the unit they follow, once both are loaded; deterministic post-load step.
// mode: write
// returns: count
MATCH (n:LegalUnit)
WHERE n.inserted_after IS NOT NULL AND NOT n:UnitVersion AND NOT EXISTS { (n)<-[:CONTAINS]-() }
MATCH (anchor:LegalNode {id: n.inserted_after})<-[:CONTAINS]-(p)
WHERE NOT p:Placeholder
MERGE (p)-[r:CONTAINS]->(n)
RETURN count(r) AS count
