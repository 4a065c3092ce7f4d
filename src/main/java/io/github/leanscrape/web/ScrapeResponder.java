package io.github.leanscrape.web;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.github.leanscrape.endpoint.PendingScrape;
import io.github.leanscrape.endpoint.ScrapeMetrics;
import io.github.leanscrape.endpoint.ScrapeTimeouts;
import io.github.leanscrape.exposition.Scrape;
import io.github.leanscrape.exposition.ScrapeBody;
import io.github.leanscrape.exposition.ScrapeOutcome;
import io.github.leanscrape.exposition.ScrapeRejectedException;
import io.github.leanscrape.exposition.Scraper;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What both web stacks do with a {@link PendingScrape} once they see the request: serve it
 * by its deadline, choose the encoding, and, when the response is done, record it once in
 * the starter's metrics and release what it held.
 * <p>
 * A scrape that misses its deadline is answered 503; one whose rendering fails, 500; both
 * with a one-line plain text body, never a stack trace. A failure is logged with its stack
 * trace the first time, at debug level after that.
 *
 * @author leanscrape
 */
public final class ScrapeResponder {

	private static final Log logger = LogFactory.getLog(ScrapeResponder.class);

	private final Scraper scraper;

	private final ScrapeTimeouts timeouts;

	private final ScrapeMetrics metrics;

	private volatile boolean failureLogged;

	/**
	 * Create a new responder.
	 * @param scraper the scraper, for compression
	 * @param timeouts the deadlines of scrapes
	 * @param metrics where finished scrapes are recorded
	 */
	public ScrapeResponder(Scraper scraper, ScrapeTimeouts timeouts, ScrapeMetrics metrics) {
		this.scraper = scraper;
		this.timeouts = timeouts;
		this.metrics = metrics;
	}

	/**
	 * Serve a scrape. Never throws: failures become error responses.
	 * @param pending the scrape
	 * @param acceptEncoding the values of the {@code Accept-Encoding} header, or
	 * {@code null}
	 * @param timeoutHeader the value of the scrape timeout header, or {@code null}
	 * @return the response to write; pass it to {@link #finish} when done
	 */
	public Response respond(PendingScrape pending, @Nullable List<String> acceptEncoding,
			@Nullable String timeoutHeader) {
		long started = System.nanoTime();
		Scrape scrape;
		try {
			scrape = pending.resolve(this.timeouts.deadline(timeoutHeader, started));
		}
		catch (ScrapeRejectedException ex) {
			return Response.error(pending, started, 503, ScrapeOutcome.REJECTED,
					"Scrape not served within its timeout: " + ex.getMessage());
		}
		catch (RuntimeException ex) {
			logFailure(ex);
			return Response.error(pending, started, 500, ScrapeOutcome.ERROR,
					"Scrape failed: " + ex.getClass().getSimpleName());
		}
		ScrapeBody plain = scrape.body();
		if (!this.scraper.canCompress() || !AcceptEncoding.acceptsGzip(acceptEncoding)) {
			return new Response(pending, started, 200, scrape.outcome(), plain, null, false, null);
		}
		try {
			ScrapeBody compressed = this.scraper.gzip(plain);
			return new Response(pending, started, 200, scrape.outcome(), plain, compressed, true, null);
		}
		catch (RuntimeException ex) {
			logFailure(ex);
			return Response.error(pending, started, 500, ScrapeOutcome.ERROR,
					"Scrape failed: " + ex.getClass().getSimpleName());
		}
	}

	/**
	 * Record a finished response in the metrics and release its compressed body. The
	 * pending scrape itself is released by whoever owns it.
	 * @param response the response
	 * @param clientGone whether the client went away before the body was written
	 */
	public void finish(Response response, boolean clientGone) {
		if (response.compressed != null) {
			response.compressed.release();
		}
		ScrapeOutcome outcome = clientGone ? ScrapeOutcome.CLIENT_GONE : response.outcome;
		long bodyBytes = (response.plain != null) ? response.plain.length() : -1;
		long sentBytes = (clientGone || response.body() == null) ? -1 : response.body().length();
		this.metrics.scraped(response.pending.format(), outcome, System.nanoTime() - response.started, bodyBytes,
				sentBytes);
	}

	/**
	 * Return whether responses vary with {@code Accept-Encoding}.
	 * @return {@code true} when compression is on
	 */
	public boolean compresses() {
		return this.scraper.canCompress();
	}

	private void logFailure(RuntimeException ex) {
		if (!this.failureLogged) {
			this.failureLogged = true;
			logger.error("Scrape failed; later failures are logged at debug level", ex);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Scrape failed", ex);
		}
	}

	/**
	 * A response to write: a body, or an error status with a short message.
	 */
	public static final class Response {

		private final PendingScrape pending;

		private final long started;

		private final int status;

		private final ScrapeOutcome outcome;

		private final @Nullable ScrapeBody plain;

		private final @Nullable ScrapeBody compressed;

		private final boolean gzip;

		private final byte @Nullable [] message;

		private Response(PendingScrape pending, long started, int status, ScrapeOutcome outcome,
				@Nullable ScrapeBody plain, @Nullable ScrapeBody compressed, boolean gzip, byte @Nullable [] message) {
			this.pending = pending;
			this.started = started;
			this.status = status;
			this.outcome = outcome;
			this.plain = plain;
			this.compressed = compressed;
			this.gzip = gzip;
			this.message = message;
		}

		static Response error(PendingScrape pending, long started, int status, ScrapeOutcome outcome,
				String message) {
			return new Response(pending, started, status, outcome, null, null, false,
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
		public @Nullable ScrapeBody body() {
			return (this.compressed != null) ? this.compressed : this.plain;
		}

		/**
		 * Return whether the body is gzip-compressed.
		 * @return {@code true} for a gzip body
		 */
		public boolean gzip() {
			return this.gzip;
		}

		/**
		 * Return the plain text message of an error response.
		 * @return the message bytes, or {@code null} for a body response
		 */
		public byte @Nullable [] message() {
			return this.message;
		}

	}

}
