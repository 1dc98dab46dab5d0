// purpose: The wording of units in force at a date: the version (or the original) whose validity covers the date; null text when none is in force (repealed, not yet in force). A wording whose start date is unknown (valid_from_unknown, valid_from null) starts at not_before, the amending document's issue date, and is flagged date_unknown; without not_before it is never served, the previous wording is, flagged possibly_superseded.
// mode: read
// param ids: list<string> -- ids of original units
// param as_of: date -- the date validity is judged at
// returns: id, version_id, text, valid_from, valid_to, status, date_unknown, not_before, possibly_superseded
UNWIND $ids AS uid
MATCH (u:LegalNode {id: uid})
WHERE u:LegalUnit
OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(u)
WITH u, v, coalesce(v.valid_from_unknown, false) AND v.valid_from IS NULL AS unknown
WITH u, v, unknown, CASE WHEN unknown THEN v.not_before ELSE v.valid_from END AS start
// Latest start first; a known date wins a tie with an unknown one.
ORDER BY start DESC, unknown, v.id DESC
WITH u, collect(CASE WHEN v IS NOT NULL THEN {n: v, start: start, unknown: unknown} END) AS versions
WITH u, versions, coalesce(u.valid_from_unknown, false) AND u.valid_from IS NULL AS u_unknown
WITH u, versions,
  versions + [{n: u, unknown: u_unknown,
    start: CASE WHEN u_unknown THEN u.not_before ELSE u.valid_from END}] AS candidates
WITH u, versions, [x IN candidates WHERE NOT (x.unknown AND x.start IS NULL)
  AND (x.start IS NULL OR x.start <= $as_of)
  AND (x.n.valid_to IS NULL OR x.n.valid_to > $as_of)] AS live
RETURN u.id AS id, live[0].n.id AS version_id, live[0].n.text AS text,
  live[0].n.valid_from AS valid_from, live[0].n.valid_to AS valid_to, live[0].n.status AS status,
  coalesce(live[0].unknown, false) AS date_unknown,
  CASE WHEN live[0].unknown THEN live[0].n.not_before END AS not_before,
  size(live) > 0 AND (coalesce(live[0].n.valid_to_unknown, false)
    OR any(x IN versions WHERE x.unknown AND x.start IS NULL)) AS possibly_superseded
