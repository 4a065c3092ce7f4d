package io.github.leanscrape.serve;

import java.util.Set;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Serves a {@link PendingScrape} for both web stacks, then records and releases it. A
 * missed deadline is answered 503 and a failure 500, with a one-line message; the first
 * failure is logged with its stack trace, later ones at debug level.
 *
 * @author leanscrape
 */
public final class ScrapeResponder {

	private static final Log logger = LogFactory.getLog(ScrapeResponder.class);

	private final Scraper scraper;

	private final Deadlines deadlines;

	private final SelfMetrics metrics;

	private volatile boolean failureLogged;

	/**
	 * Create a new responder.
	 * @param scraper the scraper, for compression
	 * @param deadlines the deadlines of scrapes
	 * @param metrics where finished scrapes are recorded
	 */
	public ScrapeResponder(Scraper scraper, Deadlines deadlines, SelfMetrics metrics) {
		this.scraper = scraper;
		this.deadlines = deadlines;
		this.metrics = metrics;
	}

	/**
	 * Serve a scrape. Never throws: failures become error responses.
	 * @param pending the scrape
	 * @param coding one of the {@link #codings()} to send the body in, chosen from
	 * {@code Accept-Encoding}, or {@code null} to send it uncompressed
	 * @param timeoutHeader the value of the scrape timeout header, or {@code null}
	 * @return the response to write; pass it to {@link #finish} when done
	 */
	public ScrapeResponse respond(PendingScrape pending, @Nullable ContentCoding coding,
			@Nullable String timeoutHeader) {
		long started = System.nanoTime();
		Served scrape;
		try {
			scrape = pending.resolve(this.deadlines.deadline(timeoutHeader, started));
		}
		catch (ScrapeRejectedException ex) {
			return ScrapeResponse.error(pending, started, 503, Outcome.REJECTED,
					"Scrape not served within its timeout: " + ex.getMessage());
		}
		catch (RuntimeException ex) {
			logFailure("Scrape failed", ex);
			return ScrapeResponse.error(pending, started, 500, Outcome.ERROR,
					"Scrape failed: " + ex.getClass().getSimpleName());
		}
		PooledBody compressed = null;
		if (coding != null) {
			try {
				compressed = this.scraper.encode(scrape.body(), coding);
			}
			catch (RuntimeException | LinkageError ex) {
				// A codec's native library, say: send the body uncompressed.
				logFailure("Compressing a scrape failed; it was sent uncompressed", ex);
			}
		}
		return new ScrapeResponse(pending, started, 200, scrape.outcome(), scrape.body().plain(), compressed, null);
	}

	/**
	 * Record a response in the metrics and release what it held, once it is written,
	 * failed, or abandoned.
	 * @param response the response
	 * @param clientGone whether the client went away before the body was written
	 */
	public void finish(ScrapeResponse response, boolean clientGone) {
		response.finish(this.metrics, clientGone);
	}

	/**
	 * Return the content codings bodies can be sent in; responses vary with
	 * {@code Accept-Encoding} when there are any.
	 * @return the codings, none when compression is off
	 */
	public Set<ContentCoding> codings() {
		return this.scraper.codings();
	}

	private void logFailure(String what, Throwable ex) {
		if (!this.failureLogged) {
			this.failureLogged = true;
			logger.error(what + "; later failures are logged at debug level", ex);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug(what, ex);
		}
	}

}
