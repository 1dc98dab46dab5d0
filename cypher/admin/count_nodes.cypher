// purpose: Count nodes per label, for status reports and load checks.
// mode: read
// returns: label, count
MATCH (n)
UNWIND labels(n) AS label
RETURN label, count(*) AS count
ORDER BY label
