// SPDX-License-Identifier: GPL-3.0-or-later

/// The candidate `word` was most likely meant to be, for "did you mean 'strokeWidth'?" hints,
/// or `nil` when none is close enough to be a plausible typo.
///
/// Closeness is the optimal-string-alignment variant of the Damerau–Levenshtein distance over
/// Unicode scalars: inserting, deleting or substituting a scalar or swapping two adjacent ones
/// costs 1, except that a substitution differing only in letter case costs 0.25. A candidate
/// qualifies when its distance is at most 2 and at most a third of `word`'s length (so a
/// 3-letter word allows one edit and a 1- or 2-letter word only case changes). The closest
/// candidate wins; ties go to the earlier one in `candidates`. An exact match is returned as is.
///
/// Cost: a candidate whose length differs from `word`'s by more than the limit cannot qualify
/// (each extra scalar costs 1) and is skipped before any table is built, so a hostile word of
/// 100 000 scalars costs one pass over it, not 100 000 × candidate cells.
public func suggestion(for word: String, among candidates: [String]) -> String? {
    let typed = Array(word.unicodeScalars)
    let limit = min(2, Double(typed.count) / 3)
    var best: (candidate: String, distance: Double)?
    for candidate in candidates {
        let scalars = Array(candidate.unicodeScalars)
        guard Double(abs(scalars.count - typed.count)) <= limit else { continue }
        let distance = editDistance(typed, scalars)
        if distance <= limit, distance < best?.distance ?? .infinity {
            best = (candidate, distance)
        }
    }
    return best?.candidate
}

/// Optimal-string-alignment distance with case-only substitutions costing 0.25.
private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
    if a.isEmpty { return Double(b.count) }
    if b.isEmpty { return Double(a.count) }
    // Three rolling rows: i - 2, i - 1 and i.
    var previous2 = [Double](repeating: 0, count: b.count + 1)
    var previous = (0...b.count).map(Double.init)
    var current = [Double](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = Double(i)
        for j in 1...b.count {
            let substitution = previous[j - 1] + substitutionCost(a[i - 1], b[j - 1])
            var value = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1], a[i - 1] != a[i - 2] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = value
        }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}

private func substitutionCost(_ x: Unicode.Scalar, _ y: Unicode.Scalar) -> Double {
    if x == y { return 0 }
    return x.properties.lowercaseMapping == y.properties.lowercaseMapping ? 0.25 : 1
}

/// `text` as messages echo it: whole when it has at most `limit` characters (default 60),
/// otherwise its first `limit` characters, an ellipsis and the total count, e.g.
/// `aaaa…(100000 characters)`, so a hostile key or option is not printed whole.
public func abbreviated(_ text: String, limit: Int = 60) -> String {
    var count = 0
    var end = text.startIndex
    for index in text.indices {
        if count == limit { end = index }
        count += 1
        if count > limit + 1 { break }
    }
    guard count > limit else { return text }
    return "\(text[..<end])…(\(text.count) characters)"
}
