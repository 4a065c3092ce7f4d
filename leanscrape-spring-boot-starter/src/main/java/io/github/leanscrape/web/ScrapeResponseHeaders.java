package io.github.leanscrape.web;

import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.ScrapeResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The headers of a scrape response, the same on both web stacks: an error is a one-line
 * plain text body; a body keeps the negotiated content type, and says how it is encoded,
 * that it varies with {@code Accept-Encoding} when compression is on, and its length.
 *
 * @author leanscrape
 */
public final class ScrapeResponseHeaders {

	private ScrapeResponseHeaders() {
	}

	/**
	 * Set the headers of a response.
	 * @param response the response to write
	 * @param headers the headers to set
	 * @param contentType the negotiated content type, or {@code null}
	 * @param variesWithEncoding whether the body depends on {@code Accept-Encoding}
	 */
	public static void apply(ScrapeResponse response, HttpHeaders headers, @Nullable MediaType contentType,
			boolean variesWithEncoding) {
		byte[] message = response.message();
		if (message != null) {
			headers.setContentType(MediaType.TEXT_PLAIN);
			headers.setContentLength(message.length);
			return;
		}
		if (headers.getContentType() == null && contentType != null && contentType.isConcrete()) {
			headers.setContentType(contentType);
		}
		if (variesWithEncoding) {
			headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
		}
		String contentEncoding = response.contentEncoding();
		if (contentEncoding != null) {
			headers.set(HttpHeaders.CONTENT_ENCODING, contentEncoding);
		}
		PooledBody body = response.body();
		if (body != null) {
			headers.setContentLength(body.length());
		}
	}

}
