package io.github.leanscrape.exposition;

/**
 * The content codings a scrape's body can be sent in, besides none.
 *
 * @author leanscrape
 */
public enum ContentCoding {

	/** gzip (RFC 1952): what every Prometheus asks for. */
	GZIP("gzip"),

	/** Zstandard (RFC 8878): Prometheus 3's {@code zstd-scrape}; far faster. */
	ZSTD("zstd");

	private final String token;

	ContentCoding(String token) {
		this.token = token;
	}

	/**
	 * Return the coding's name in HTTP headers.
	 * @return the token
	 */
	public String token() {
		return this.token;
	}

}
