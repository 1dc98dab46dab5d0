// purpose: The wording of units in force at a date: the version (or the original) whose validity covers the date; null text when none is in force (repealed, not yet in force).
// mode: read
// param ids: list<string> -- ids of original units
// param as_of: date -- the date validity is judged at
// returns: id, version_id, text, valid_from, valid_to, status
UNWIND $ids AS uid
MATCH (u:LegalNode {id: uid})
WHERE u:LegalUnit
OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(u)
WITH u, v ORDER BY v.valid_from DESC
WITH u, collect(v) + [u] AS candidates
WITH u, [x IN candidates WHERE (x.valid_from IS NULL OR x.valid_from <= $as_of)
  AND (x.valid_to IS NULL OR x.valid_to > $as_of)] AS live
RETURN u.id AS id, live[0].id AS version_id, live[0].text AS text,
  live[0].valid_from AS valid_from, live[0].valid_to AS valid_to, live[0].status AS status
