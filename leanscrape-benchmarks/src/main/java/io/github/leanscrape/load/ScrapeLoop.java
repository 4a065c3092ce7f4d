package io.github.leanscrape.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * One scraper that behaves as Prometheus 2 does: a scrape at a fixed phase of every
 * interval, with Prometheus's {@code Accept}, {@code Accept-Encoding} and scrape timeout
 * headers, given up (and the exchange cancelled) when the timeout passes, and no new
 * scrape before the previous one is over: missed ticks are skipped.
 *
 * @author leanscrape
 */
final class ScrapeLoop implements Runnable {

	/**
	 * What Prometheus 2 asks for.
	 */
	static final String ACCEPT = "application/openmetrics-text;version=1.0.0,"
			+ "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

	private final HttpClient client;

	private final HttpRequest request;

	private final long intervalNanos;

	private final long timeoutNanos;

	private final long firstNanos;

	private volatile boolean running = true;

	private volatile long measureFrom = Long.MAX_VALUE;

	private volatile long measureUntil = Long.MAX_VALUE;

	private long ok;

	private long rejected;

	private long failed;

	private long okNanos;

	/**
	 * Create a scrape loop.
	 * @param client the client to scrape with
	 * @param uri the scrape address
	 * @param interval the scrape interval
	 * @param timeout the scrape timeout, sent in the header and enforced
	 * @param firstNanos the {@link System#nanoTime()} of the first scrape
	 * @param acceptEncoding the {@code Accept-Encoding} to send: {@code gzip} as
	 * Prometheus 2 does, {@code zstd} as Prometheus 3 with its {@code zstd-scrape}
	 * feature
	 */
	ScrapeLoop(HttpClient client, URI uri, Duration interval, Duration timeout, long firstNanos,
			String acceptEncoding) {
		this.client = client;
		this.request = HttpRequest.newBuilder(uri)
			.header("Accept", ACCEPT)
			.header("Accept-Encoding", acceptEncoding)
			.header("X-Prometheus-Scrape-Timeout-Seconds", Double.toString(timeout.toMillis() / 1000.0))
			.GET()
			.build();
		this.intervalNanos = interval.toNanos();
		this.timeoutNanos = timeout.toNanos();
		this.firstNanos = firstNanos;
	}

	@Override
	public void run() {
		long next = this.firstNanos;
		while (this.running) {
			long wait;
			while ((wait = next - System.nanoTime()) > 0 && this.running) {
				LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(100)));
			}
			if (!this.running) {
				return;
			}
			long started = System.nanoTime();
			int status = scrape();
			long took = System.nanoTime() - started;
			if (started >= this.measureFrom && started < this.measureUntil) {
				record(status, took);
			}
			next += this.intervalNanos;
			long now = System.nanoTime();
			while (next < now) {
				next += this.intervalNanos;
			}
		}
	}

	private int scrape() {
		CompletableFuture<HttpResponse<Void>> exchange = this.client.sendAsync(this.request,
				HttpResponse.BodyHandlers.discarding());
		try {
			return exchange.get(this.timeoutNanos, TimeUnit.NANOSECONDS).statusCode();
		}
		catch (TimeoutException ex) {
			// Prometheus hangs up at the scrape timeout; so does this scraper.
			exchange.cancel(true);
			return -1;
		}
		catch (ExecutionException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
			return -1;
		}
	}

	private synchronized void record(int status, long nanos) {
		if (status == 200) {
			this.ok++;
			this.okNanos += nanos;
		}
		else if (status == 503) {
			this.rejected++;
		}
		else {
			this.failed++;
		}
	}

	/**
	 * Count the scrapes that start from now on.
	 */
	void measureFromNow() {
		this.measureFrom = System.nanoTime();
	}

	/**
	 * Stop counting scrapes.
	 */
	void measureUntilNow() {
		this.measureUntil = System.nanoTime();
	}

	/**
	 * Stop after the scrape under way, if any.
	 */
	void stop() {
		this.running = false;
	}

	synchronized Counts counts() {
		return new Counts(this.ok, this.rejected, this.failed, this.okNanos);
	}

	/**
	 * What scrapes counted while measuring ended as.
	 *
	 * @param ok answered 200 within the timeout
	 * @param rejected answered 503
	 * @param failed timed out, failed or answered otherwise
	 * @param okNanos the total duration of the scrapes answered 200
	 */
	record Counts(long ok, long rejected, long failed, long okNanos) {

		Counts plus(Counts other) {
			return new Counts(this.ok + other.ok, this.rejected + other.rejected, this.failed + other.failed,
					this.okNanos + other.okNanos);
		}

	}

}
