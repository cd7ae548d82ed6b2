// English function words, left out of similarity so that sentences are compared on what they are
// about. Other languages do without a list: inverse document frequency already discounts their most
// frequent words.
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'about', 'above', 'after', 'again', 'against', 'ain', 'all', 'also', 'am', 'an', 'and',
  'any', 'are', 'aren', 'as', 'at', 'be', 'because', 'been', 'before', 'being', 'below',
  'between', 'both', 'but', 'by', 'can', 'could', 'couldn', 'd', 'did', 'didn', 'do', 'does',
  'doesn', 'doing', 'don', 'down', 'during', 'each', 'few', 'for', 'from', 'further', 'had',
  'hadn', 'has', 'hasn', 'have', 'haven', 'having', 'he', 'her', 'here', 'hers', 'herself',
  'him', 'himself', 'his', 'how', 'i', 'if', 'in', 'into', 'is', 'isn', 'it', 'its', 'itself',
  'just', 'll', 'm', 'ma', 'may', 'me', 'might', 'mightn', 'more', 'most', 'must', 'mustn', 'my',
  'myself', 'needn', 'no', 'nor', 'not', 'now', 'o', 'of', 'off', 'on', 'once', 'one', 'only',
  'or', 'other', 'our', 'ours', 'ourselves', 'out', 'over', 'own', 're', 's', 'said', 'same',
  'say', 'says', 'shan', 'she', 'should', 'shouldn', 'so', 'some', 'such', 't', 'than', 'that',
  'the', 'their', 'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they', 'this',
  'those', 'through', 'to', 'too', 'two', 'under', 'until', 'up', 'us', 've', 'very', 'was',
  'wasn', 'we', 'were', 'weren', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'why',
  'will', 'with', 'won', 'would', 'wouldn', 'y', 'you', 'your', 'yours', 'yourself',
  'yourselves',
]);
