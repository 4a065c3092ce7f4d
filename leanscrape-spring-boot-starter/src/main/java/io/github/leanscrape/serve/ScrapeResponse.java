package io.github.leanscrape.serve;

import java.nio.charset.StandardCharsets;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * A response for a web stack to write, then hand to {@link ScrapeResponder#finish}: a
 * body with its coding, or an error status with a one-line message.
 *
 * @author leanscrape
 */
public final class ScrapeResponse {

	private final PendingScrape pending;

	private final long started;

	private final int status;

	private final Outcome outcome;

	private final @Nullable PooledBody plain;

	private final @Nullable PooledBody compressed;

	private final byte @Nullable [] message;

	ScrapeResponse(PendingScrape pending, long started, int status, Outcome outcome, @Nullable PooledBody plain,
			@Nullable PooledBody compressed, byte @Nullable [] message) {
		this.pending = pending;
		this.started = started;
		this.status = status;
		this.outcome = outcome;
		this.plain = plain;
		this.compressed = compressed;
		this.message = message;
	}

	static ScrapeResponse error(PendingScrape pending, long started, int status, Outcome outcome, String message) {
		return new ScrapeResponse(pending, started, status, outcome, null, null,
				(message + "\n").getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Return the HTTP status.
	 * @return 200, 500 or 503
	 */
	public int status() {
		return this.status;
	}

	/**
	 * Return the body to send, or {@code null} for an error response.
	 * @return the body
	 */
	public @Nullable PooledBody body() {
		return (this.compressed != null) ? this.compressed : this.plain;
	}

	/**
	 * Return the content coding of the body.
	 * @return {@code gzip} or {@code zstd}, or {@code null} when not compressed
	 */
	public @Nullable String contentEncoding() {
		ContentCoding coding = (this.compressed != null) ? this.compressed.kind().coding() : null;
		return (coding != null) ? coding.token() : null;
	}

	/**
	 * Return the plain text message of an error response.
	 * @return the message, or {@code null} for a body
	 */
	public byte @Nullable [] message() {
		return this.message;
	}

	void finish(SelfMetrics metrics, boolean clientGone) {
		PooledBody sent = body();
		try {
			metrics.scraped(this.pending.format(), clientGone ? Outcome.CLIENT_GONE : this.outcome,
					System.nanoTime() - this.started, (this.plain != null) ? this.plain.length() : -1,
					(clientGone || sent == null) ? -1 : sent.length());
		}
		finally {
			try {
				if (this.compressed != null) {
					this.compressed.release();
				}
			}
			finally {
				this.pending.release();
			}
		}
	}

}
