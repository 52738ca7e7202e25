/** Pure metrics: strings or vectors in, numbers out. No I/O, no option parsing. */
export { levenshteinDistance, sequenceDistance, toUnits, unitLength, type LevenshteinOptions, type TextUnit } from "./levenshtein.js";
export { jaccardSimilarity } from "./jaccard.js";
export { tfidfCosine, tfidfAnalysis, smoothIdf, type IdfTable, type TfidfAnalysis, type TfidfTerm } from "./tfidf.js";
export { cosineSimilarity } from "./cosine.js";
export { wordTokens, charNgrams, charNgramCounts, collapseWhitespace, countTokens } from "./tokens.js";
export { roundFractionHalfUp } from "./rounding.js";
