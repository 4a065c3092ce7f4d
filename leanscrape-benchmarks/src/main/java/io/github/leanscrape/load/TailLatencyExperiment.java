package io.github.leanscrape.load;

import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.github.leanscrape.demo.DemoProcess;
import io.github.leanscrape.docs.TailLatencyTrials;
import io.github.leanscrape.support.RunRecord;

/**
 * The tail-latency experiment: what scraping does to the latency of an application's
 * other requests, measured in trials that pair windows with and without scraping in one
 * application.
 * <p>
 * For each scenario the demo application (100,000 series by default) starts in a JVM of
 * its own, always with the same heap and collector, and a GC log. This JVM sends it
 * {@code GET /hello} at a constant rate, open loop (see {@link OpenLoopLoad}), all the
 * time. After a warm-up with scraping, it measures pairs of windows: one alone (no
 * scraper), one scraped (Prometheus-like scrapers, see {@link ScrapeLoop}, scraping
 * {@code /actuator/prometheus} every second), in the order alone-scraped, then
 * scraped-alone, and so on, so that a drift of the machine or the application over the
 * run weighs on both kinds alike. Each window first lets the change settle, then records
 * the latencies of the requests due in it, the application's GC pauses and CPU time, and
 * the scrapes. A scenario's figures are the medians over its pairs, and each pair's ratio
 * of scraped to alone, with their range: the no-scrape baseline moves between runs on a
 * shared machine, a ratio within one application and a few seconds moves much less.
 * <p>
 * Writes the raw result ({@code tail-latency.tsv}: every window, with the date, commit,
 * JDK, machine and command), the table ({@code tail-latency.md}) and the chart
 * ({@code tail-latency.png}) to the output directory, and per scenario the application's
 * log and GC log under {@code tail-latency/}. Run it with
 * {@code ./mvnw -Pjmh -DskipTests test-compile exec:exec@tail-latency}, passing options
 * in {@code -Dtail-latency.args="--pairs=5 ..."}:
 * <ul>
 * <li>{@code --scenarios=leanscrape,leanscrape-zstd,leanscrape-storm,leanscrape-storm-zstd,boot}:
 * in this order. Also {@code boot-storm} (Spring Boot's endpoint under the storm, which
 * takes the application down), {@code leanscrape-identity} (the starter, asked for no
 * compression) and {@code leanscrape-whole} (the starter compressing and formatting the
 * whole body every scrape: {@code leanscrape.reuse.enabled=false})</li>
 * <li>{@code --pairs=3}: pairs of windows per scenario</li>
 * <li>{@code --warmup=20s}: scraped, before the first pair; {@code --settle=3s}: after
 * each change, not measured; {@code --duration=20s}: each measured window</li>
 * <li>{@code --rate=1000}: requests per second, over {@code --connections=16}</li>
 * <li>{@code --series=100000}, {@code --heap=1g}</li>
 * <li>{@code --changing=0}: percentage of the demo's synthetic counters incremented every
 * second ({@code demo.changing-percent}), whole families at a time</li>
 * <li>{@code --storm=20}: scrapers of the storm scenarios</li>
 * <li>{@code --interval=1s}, {@code --scrape-timeout=1s}: as Prometheus, which wants the
 * timeout no longer than the interval</li>
 * <li>{@code --phases=spread}: scrapers start at random phases of the interval (fixed
 * seed), as independent Prometheus servers do; {@code aligned} starts them together</li>
 * <li>{@code --out=target}: the output directory</li>
 * </ul>
 *
 * @author leanscrape
 */
public final class TailLatencyExperiment {

	private static final String COMMAND = "./mvnw -Pjmh -DskipTests test-compile exec:exec@tail-latency";

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

	private static final double[] PERCENTILES = { 50, 90, 99, 99.9, 99.99, 100 };

	private final Options options;

	private TailLatencyExperiment(Options options) {
		this.options = options;
	}

	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		// Interrupted (Ctrl-C), take the application down too.
		Runtime.getRuntime()
			.addShutdownHook(
					new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly)));
		new TailLatencyExperiment(options).run(String.join(" ", args));
	}

	private void run(String arguments) throws Exception {
		Path directory = this.options.out.resolve("tail-latency");
		Files.createDirectories(directory);
		Map<String, String> header = new LinkedHashMap<>(RunRecord
			.describe(COMMAND + (arguments.isBlank() ? "" : " -Dtail-latency.args=\"" + arguments + "\"")));
		header.put("options", this.options.describe());
		List<TailLatencyTrials.Window> windows = new ArrayList<>();
		Path raw = this.options.out.resolve("tail-latency.tsv");
		for (Scenario scenario : this.options.scenarios) {
			System.out.printf(Locale.ROOT, "%n== %s: %s%n", scenario.id, scenario.describe(this.options));
			windows.addAll(run(scenario, directory));
			// Written after every scenario: a run cut short keeps what it measured.
			new TailLatencyTrials(header, windows).write(raw);
		}
		TailLatencyTrials trials = new TailLatencyTrials(header, windows);
		String table = trials.table();
		System.out.println();
		System.out.println(table);
		Files.writeString(this.options.out.resolve("tail-latency.md"), table, StandardCharsets.UTF_8);
		trials.chart(this.options.out.resolve("tail-latency.png"));
		System.out.println("Wrote " + raw + ", " + this.options.out.resolve("tail-latency.md") + " and "
				+ this.options.out.resolve("tail-latency.png"));
	}

	private List<TailLatencyTrials.Window> run(Scenario scenario, Path directory) throws Exception {
		Path gcLog = directory.resolve(scenario.id + "-gc.log");
		Files.deleteIfExists(gcLog);
		List<String> jvm = List.of("-Xms" + this.options.heap, "-Xmx" + this.options.heap, "-XX:+UseG1GC",
				GcLog.option(gcLog));
		List<String> arguments = new ArrayList<>();
		arguments.add("--demo.series=" + this.options.series);
		arguments.add("--leanscrape.enabled=" + !scenario.boot);
		arguments.add("--leanscrape.reuse.enabled=" + scenario.reuse);
		arguments.add("--demo.changing-percent=" + this.options.changing);
		ExecutorService scrapeExecutor = Executors.newFixedThreadPool(4, daemon("scrape-client"));
		List<TailLatencyTrials.Window> windows = new ArrayList<>();
		try (DemoProcess demo = DemoProcess.start(jvm, arguments, directory.resolve(scenario.id + "-app.log"),
				STARTUP_TIMEOUT)) {
			// The scrapers share a client; the measured requests have connections of
			// their own.
			HttpClient scrapeClient = client(scrapeExecutor);
			Trial trial = new Trial(scenario, demo, scrapeClient, gcLog);
			trial.window(0, true, this.options.warmup.toNanos() - TimeUnit.SECONDS.toNanos(1),
					TimeUnit.SECONDS.toNanos(1));
			System.out.println("warmed up");
			for (int pair = 1; pair <= this.options.pairs; pair++) {
				// Alone first in odd pairs, scraped first in even ones.
				boolean scrapedFirst = pair % 2 == 0;
				for (boolean scraped : new boolean[] { scrapedFirst, !scrapedFirst }) {
					TailLatencyTrials.Window window = trial.window(pair, scraped, this.options.settle.toNanos(),
							this.options.duration.toNanos());
					System.out.println(summary(window));
					windows.add(window);
				}
			}
		}
		finally {
			scrapeExecutor.shutdownNow();
		}
		return windows;
	}

	private static String summary(TailLatencyTrials.Window window) {
		return String.format(Locale.ROOT,
				"pair %d %-7s %d requests (%d failed): p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms; "
						+ "GC %d pauses, %.1f ms; CPU %.0f ms; scrapes %d ok (%.1f ms), %d 503, %d failed; load %.1f-%.1f",
				window.pair(), window.scraped() ? "scraped" : "alone", window.requests(), window.failed(),
				window.percentileMicros()[0] / 1e3, window.percentileMicros()[2] / 1e3,
				window.percentileMicros()[3] / 1e3, window.percentileMicros()[5] / 1e3, window.gcPauses(),
				window.gcTotalMillis(), window.cpuMillis(), window.scrapesOk(), window.scrapeMeanMillis(),
				window.scrapesRejected(), window.scrapesFailed(), window.loadStart(), window.loadEnd());
	}

	private static long cpuNanos(ProcessHandle process) {
		return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
	}

	private static HttpClient client(ExecutorService executor) {
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.executor(executor)
			.build();
	}

	private static ThreadFactory daemon(String name) {
		return (runnable) -> {
			Thread thread = new Thread(runnable, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	private static double loadAverage() {
		return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
	}

	private static String seconds(Duration duration) {
		double seconds = duration.toMillis() / 1000.0;
		return (seconds == Math.rint(seconds)) ? Long.toString((long) seconds) : Double.toString(seconds);
	}

	/**
	 * One scenario's application and its windows.
	 */
	private final class Trial {

		private final Scenario scenario;

		private final DemoProcess demo;

		private final HttpClient scrapeClient;

		private final Path gcLog;

		Trial(Scenario scenario, DemoProcess demo, HttpClient scrapeClient, Path gcLog) {
			this.scenario = scenario;
			this.demo = demo;
			this.scrapeClient = scrapeClient;
			this.gcLog = gcLog;
		}

		TailLatencyTrials.Window window(int pair, boolean scraped, long settleNanos, long measureNanos)
				throws Exception {
			Options options = TailLatencyExperiment.this.options;
			List<ScrapeLoop> scrapers = new ArrayList<>();
			List<Thread> threads = new ArrayList<>();
			Random phases = new Random(42);
			long first = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
			int count = scraped ? this.scenario.scrapers(options) : 0;
			for (int i = 0; i < count; i++) {
				long phase = options.spread ? (long) (phases.nextDouble() * options.interval.toNanos()) : 0;
				ScrapeLoop scraper = new ScrapeLoop(this.scrapeClient, this.demo.uri("/actuator/prometheus"),
						options.interval, options.scrapeTimeout, first + phase, this.scenario.acceptEncoding);
				scrapers.add(scraper);
				Thread thread = new Thread(scraper, "scraper-" + i);
				thread.setDaemon(true);
				threads.add(thread);
				thread.start();
			}
			long[] millis = new long[2];
			long[] cpuNanos = new long[2];
			double[] load = new double[2];
			ProcessHandle application = this.demo.process().toHandle();
			OpenLoopLoad.Result result = new OpenLoopLoad("127.0.0.1", this.demo.port(), "/hello", options.rate,
					options.connections)
				.run(settleNanos, measureNanos, new OpenLoopLoad.Window() {

					@Override
					public void started() {
						millis[0] = System.currentTimeMillis();
						cpuNanos[0] = cpuNanos(application);
						load[0] = loadAverage();
						scrapers.forEach(ScrapeLoop::measureFromNow);
					}

					@Override
					public void ended() {
						millis[1] = System.currentTimeMillis();
						cpuNanos[1] = cpuNanos(application);
						load[1] = loadAverage();
						scrapers.forEach(ScrapeLoop::measureUntilNow);
					}

				});
			scrapers.forEach(ScrapeLoop::stop);
			for (Thread thread : threads) {
				// A scrape under way ends by its timeout.
				thread.join(options.scrapeTimeout.toMillis() + 5_000);
			}
			ScrapeLoop.Counts scrapes = new ScrapeLoop.Counts(0, 0, 0, 0);
			for (ScrapeLoop scraper : scrapers) {
				scrapes = scrapes.plus(scraper.counts());
			}
			boolean healthy = this.demo.isAlive() && !this.demo.output().contains("OutOfMemoryError");
			GcLog.Pauses pauses = GcLog.pauses(this.gcLog, millis[0], millis[1]);
			long[] micros = new long[PERCENTILES.length];
			for (int i = 0; i < micros.length; i++) {
				long nanos = (PERCENTILES[i] >= 100) ? result.latencies().getMaxValue()
						: result.latencies().getValueAtPercentile(PERCENTILES[i]);
				micros[i] = nanos / 1000;
			}
			return new TailLatencyTrials.Window(this.scenario.id, this.scenario.describe(options), pair, scraped,
					result.requests(), result.errors(), micros, pauses.count(), pauses.totalMillis(),
					pauses.maxMillis(), scrapes.ok(), scrapes.rejected(), scrapes.failed(),
					(scrapes.ok() > 0) ? scrapes.okNanos() / 1e6 / scrapes.ok() : 0, (cpuNanos[1] - cpuNanos[0]) / 1e6,
					(millis[1] - millis[0]) / 1000.0, load[0], load[1], healthy);
		}

	}

	/**
	 * A scenario: which endpoint serves the scrapes, how many scrapers there are, and the
	 * compression they ask for.
	 */
	private enum Scenario {

		LEANSCRAPE("leanscrape", "leanscrape", false, 1, "gzip"),

		LEANSCRAPE_ZSTD("leanscrape-zstd", "leanscrape", false, 1, "zstd"),

		LEANSCRAPE_STORM("leanscrape-storm", "leanscrape", false, -1, "gzip"),

		LEANSCRAPE_STORM_ZSTD("leanscrape-storm-zstd", "leanscrape", false, -1, "zstd"),

		BOOT("boot", "Spring Boot", true, 1, "gzip"),

		/**
		 * Not run by default: the application does not survive it.
		 */
		BOOT_STORM("boot-storm", "Spring Boot", true, -1, "gzip"),

		/**
		 * Not run by default: the starter asked for no compression, sending what Spring
		 * Boot's endpoint sends.
		 */
		LEANSCRAPE_IDENTITY("leanscrape-identity", "leanscrape", false, 1, "identity"),

		/**
		 * Not run by default: the starter compressing and formatting the whole body on
		 * every scrape, as before it reused what did not change; beside
		 * {@code leanscrape} with {@code --changing}, what reuse gives back.
		 */
		LEANSCRAPE_WHOLE("leanscrape-whole", "leanscrape, whole body every scrape", false, 1, "gzip", false);

		static final List<Scenario> DEFAULTS = List.of(LEANSCRAPE, LEANSCRAPE_ZSTD, LEANSCRAPE_STORM,
				LEANSCRAPE_STORM_ZSTD, BOOT);

		private final String id;

		private final String label;

		private final boolean boot;

		private final int scrapers;

		private final String acceptEncoding;

		/** Whether the starter reuses what did not change since the last scrape. */
		private final boolean reuse;

		Scenario(String id, String label, boolean boot, int scrapers, String acceptEncoding) {
			this(id, label, boot, scrapers, acceptEncoding, true);
		}

		Scenario(String id, String label, boolean boot, int scrapers, String acceptEncoding, boolean reuse) {
			this.id = id;
			this.label = label;
			this.boot = boot;
			this.scrapers = scrapers;
			this.acceptEncoding = acceptEncoding;
			this.reuse = reuse;
		}

		int scrapers(Options options) {
			return (this.scrapers < 0) ? options.storm : this.scrapers;
		}

		String describe(Options options) {
			int count = scrapers(options);
			return this.label + ", " + count + ((count == 1) ? " scraper, " : " scrapers, ") + this.acceptEncoding;
		}

		static Scenario of(String id) {
			for (Scenario scenario : values()) {
				if (scenario.id.equals(id)) {
					return scenario;
				}
			}
			throw new IllegalArgumentException("Unknown scenario '" + id + "'");
		}

	}

	/**
	 * The options of a run.
	 */
	private static final class Options {

		private List<Scenario> scenarios = Scenario.DEFAULTS;

		private int pairs = 3;

		private Duration warmup = Duration.ofSeconds(20);

		private Duration settle = Duration.ofSeconds(3);

		private Duration duration = Duration.ofSeconds(20);

		private int rate = 1000;

		private int connections = 16;

		private int series = 100_000;

		private double changing;

		private String heap = "1g";

		private int storm = 20;

		private Duration interval = Duration.ofSeconds(1);

		private Duration scrapeTimeout = Duration.ofSeconds(1);

		private boolean spread = true;

		private Path out = Paths.get("target");

		String describe() {
			return String.format(Locale.ROOT,
					"%d req/s open loop over %d connections, %d series (%s%% of the counters changing every second), -Xmx%s G1, a scrape every %s s per scraper "
							+ "(timeout %s s, %s), storm %d scrapers; %s s warm-up, then %d pairs of windows "
							+ "(%s s to settle, %s s measured)",
					this.rate, this.connections, this.series, this.changing, this.heap, seconds(this.interval),
					seconds(this.scrapeTimeout), this.spread ? "phases spread" : "phases aligned", this.storm,
					seconds(this.warmup), this.pairs, seconds(this.settle), seconds(this.duration));
		}

		static Options parse(String[] args) {
			Map<String, String> values = new LinkedHashMap<>();
			for (String arg : args) {
				if (!arg.startsWith("--") || !arg.contains("=")) {
					throw new IllegalArgumentException("Expected --name=value, not '" + arg + "'");
				}
				values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
			}
			Options options = new Options();
			for (Map.Entry<String, String> entry : values.entrySet()) {
				String value = entry.getValue();
				switch (entry.getKey()) {
					case "scenarios" -> {
						List<Scenario> scenarios = new ArrayList<>();
						for (String id : value.split(",")) {
							scenarios.add(Scenario.of(id.trim()));
						}
						options.scenarios = scenarios;
					}
					case "pairs" -> {
						options.pairs = Integer.parseInt(value);
					}
					case "warmup" -> {
						options.warmup = duration(value);
					}
					case "settle" -> {
						options.settle = duration(value);
					}
					case "duration" -> {
						options.duration = duration(value);
					}
					case "rate" -> {
						options.rate = Integer.parseInt(value);
					}
					case "connections" -> {
						options.connections = Integer.parseInt(value);
					}
					case "series" -> {
						options.series = Integer.parseInt(value);
					}
					case "changing" -> {
						options.changing = Double.parseDouble(value);
					}
					case "heap" -> {
						options.heap = value;
					}
					case "storm" -> {
						options.storm = Integer.parseInt(value);
					}
					case "interval" -> {
						options.interval = duration(value);
					}
					case "scrape-timeout" -> {
						options.scrapeTimeout = duration(value);
					}
					case "phases" -> {
						if (!value.equals("spread") && !value.equals("aligned")) {
							throw new IllegalArgumentException("--phases is spread or aligned, not '" + value + "'");
						}
						options.spread = value.equals("spread");
					}
					case "out" -> {
						options.out = Paths.get(value);
					}
					default -> throw new IllegalArgumentException("Unknown option --" + entry.getKey());
				}
			}
			return options;
		}

		private static Duration duration(String value) {
			if (value.endsWith("ms")) {
				return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
			}
			if (value.endsWith("s")) {
				return Duration.ofMillis((long) (Double.parseDouble(value.substring(0, value.length() - 1)) * 1000));
			}
			if (value.endsWith("m")) {
				return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)) * 60);
			}
			return Duration.ofMillis((long) (Double.parseDouble(value) * 1000));
		}

	}

}
