package io.github.leanscrape.load;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

/**
 * Sends {@code GET} requests at a constant rate, whatever the server does, and records
 * each request's latency from the moment it was due to be sent (open loop, as wrk2 does).
 * <p>
 * A closed loop (connections that each wait for an answer before sending the next
 * request, and count from when they sent it) sends less while the server stalls and so
 * hides the stall from its figures: coordinated omission. Here each of a fixed number of
 * keep-alive connections has its own schedule, together the requested rate: request
 * {@code i} is due at {@code start + i / rate} on connection {@code i mod connections}.
 * When a connection is still waiting for an earlier answer at that time, the request goes
 * out as soon as it can, and the delay counts as latency.
 * <p>
 * A plain HTTP/1.1 client over blocking sockets ({@link HttpConnection}), one thread per
 * connection: it costs the machine little next to the application it measures, and
 * allocates almost nothing.
 *
 * @author leanscrape
 */
final class OpenLoopLoad {

	private static final int READ_TIMEOUT_MILLIS = 10_000;

	/**
	 * How long answers may take once the last request was due; later, the connections are
	 * closed and what they still owed counts as failed.
	 */
	private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

	private final String host;

	private final int port;

	private final String path;

	private final int ratePerSecond;

	private final int connections;

	private volatile boolean stopped;

	OpenLoopLoad(String host, int port, String path, int ratePerSecond, int connections) {
		this.host = host;
		this.port = port;
		this.path = path;
		this.ratePerSecond = ratePerSecond;
		this.connections = connections;
	}

	/**
	 * Send requests for the warm-up, then for the measurement, and wait for the answers.
	 * @param warmupNanos how long to send before measuring
	 * @param measureNanos how long to send while measuring
	 * @param window told when the measurement starts and ends
	 * @return the latencies of the requests due during the measurement
	 * @throws InterruptedException if interrupted
	 */
	Result run(long warmupNanos, long measureNanos, Window window) throws InterruptedException {
		long interval = TimeUnit.SECONDS.toNanos(1) / this.ratePerSecond;
		// A moment for the threads to start before the first request is due.
		long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
		long measureFrom = start + warmupNanos;
		long end = measureFrom + measureNanos;
		List<Connection> workers = new ArrayList<>();
		List<Thread> threads = new ArrayList<>();
		for (int k = 0; k < this.connections; k++) {
			Connection connection = new Connection(k, start, interval, measureFrom, end);
			workers.add(connection);
			Thread thread = new Thread(connection, "load-" + k);
			thread.setDaemon(true);
			threads.add(thread);
			thread.start();
		}
		sleepUntil(measureFrom);
		window.started();
		sleepUntil(end);
		window.ended();
		for (Thread thread : threads) {
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end + DRAIN_NANOS - System.nanoTime())));
		}
		this.stopped = true;
		for (Connection connection : workers) {
			// Unblocks a read that still waits for an answer.
			connection.close();
		}
		Histogram latencies = new Histogram(3);
		long requests = 0;
		long errors = 0;
		for (int k = 0; k < this.connections; k++) {
			// Long enough for a connection attempt under way to time out.
			threads.get(k).join(TimeUnit.SECONDS.toMillis(15));
			Connection connection = workers.get(k);
			synchronized (connection) {
				latencies.add(connection.latencies);
				requests += connection.requests;
				errors += connection.errors;
			}
		}
		return new Result(latencies, requests, errors);
	}

	private static void sleepUntil(long nanoTime) {
		long wait;
		while ((wait = nanoTime - System.nanoTime()) > 0) {
			LockSupport.parkNanos(wait);
		}
	}

	/**
	 * One keep-alive connection and its share of the schedule.
	 */
	private final class Connection implements Runnable {

		private final int index;

		private final long start;

		private final long interval;

		private final long measureFrom;

		private final long end;

		private final Histogram latencies = new Histogram(3);

		private final HttpConnection http;

		private long requests;

		private long errors;

		Connection(int index, long start, long interval, long measureFrom, long end) {
			this.index = index;
			this.start = start;
			this.interval = interval;
			this.measureFrom = measureFrom;
			this.end = end;
			this.http = new HttpConnection(OpenLoopLoad.this.host, OpenLoopLoad.this.port, READ_TIMEOUT_MILLIS,
					OpenLoopLoad.this.path, "Accept: */*");
		}

		@Override
		public void run() {
			try {
				for (long i = this.index;; i += OpenLoopLoad.this.connections) {
					long due = this.start + i * this.interval;
					if (due >= this.end) {
						return;
					}
					if (OpenLoopLoad.this.stopped) {
						// Never sent: late by at least this much.
						record(due, false);
						continue;
					}
					sleepUntil(due);
					record(due, exchange());
				}
			}
			finally {
				close();
			}
		}

		private void record(long due, boolean ok) {
			// Latency from when the request was due, not from when it went out.
			long latency = System.nanoTime() - due;
			if (due < this.measureFrom) {
				return;
			}
			synchronized (this) {
				this.latencies.recordValue(latency);
				this.requests++;
				if (!ok) {
					this.errors++;
				}
			}
		}

		private boolean exchange() {
			try {
				if (!this.http.isOpen() && OpenLoopLoad.this.stopped) {
					return false;
				}
				return this.http.exchange() == 200;
			}
			catch (IOException | RuntimeException ex) {
				this.http.close();
				return false;
			}
		}

		void close() {
			this.http.close();
		}

	}

	/**
	 * Told when the measured part of a run starts and ends.
	 */
	interface Window {

		void started();

		void ended();

	}

	/**
	 * Latencies of one run.
	 *
	 * @param latencies the latencies of the requests due while measuring, in nanoseconds,
	 * failed ones included
	 * @param requests the requests due while measuring
	 * @param errors how many of them failed, were not answered 200, or were still
	 * unanswered (or unsent) when the run stopped
	 */
	record Result(Histogram latencies, long requests, long errors) {

	}

}
