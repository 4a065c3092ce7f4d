package io.github.leanscrape.load;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
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

import org.HdrHistogram.Histogram;

/**
 * The tail-latency experiment: what scraping does to the latency of an application's
 * other requests.
 * <p>
 * For each scenario the demo application (100,000 series by default) starts in a JVM of
 * its own, always with the same heap and collector, and a GC log. This JVM sends it
 * {@code GET /hello} at a constant rate, open loop (see {@link OpenLoopLoad}), while
 * Prometheus-like scrapers (see {@link ScrapeLoop}) scrape {@code /actuator/prometheus}
 * every second: none, one, or a storm of them, against Spring Boot's own endpoint
 * ({@code leanscrape.enabled=false}) or the starter's. After a warm-up, the latencies of
 * the requests due during the measurement are recorded, with the GC pauses of the
 * application in that window.
 * <p>
 * Writes a markdown table to standard output and {@code tail-latency.md}, a chart to
 * {@code tail-latency.png}, and per scenario the latency distribution ({@code .hgrm}),
 * the application's log and its GC log under {@code tail-latency/}, all in the output
 * directory. Run it with
 * {@code ./mvnw -Pjmh -DskipTests test-compile exec:exec@tail-latency}, passing options
 * in {@code -Dtail-latency.args="--duration=60s ..."}:
 * <ul>
 * <li>{@code --scenarios=no-scrape,boot,leanscrape,boot-storm,leanscrape-storm}: in this
 * order; list one more than once to see how much runs vary. Also
 * {@code leanscrape-no-gzip}: the starter with compression off, sending what Spring
 * Boot's endpoint sends</li>
 * <li>{@code --warmup=20s}, {@code --duration=30s}: per scenario</li>
 * <li>{@code --rate=2000}: requests per second, over {@code --connections=16}</li>
 * <li>{@code --series=100000}, {@code --heap=1g}</li>
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

	private static final double[] CHART_PERCENTILES = { 50, 90, 99, 99.9, 99.99, 100 };

	private static final List<String> CHART_COLUMNS = List.of("p50", "p90", "p99", "p99.9", "p99.99", "max");

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

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
		String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))
				+ " UTC";
		List<Row> rows = new ArrayList<>();
		for (int i = 0; i < this.options.scenarios.size(); i++) {
			Scenario scenario = this.options.scenarios.get(i);
			System.out.printf(Locale.ROOT, "%n== %s: %s%n", scenario.id, scenario.describe(this.options));
			// Numbered: a scenario may be listed more than once, to see how much runs
			// vary.
			Row row = run(scenario, directory, (i + 1) + "-" + scenario.id);
			rows.add(row);
			System.out.println(row.summary());
		}
		String report = report(rows, started, arguments);
		System.out.println();
		System.out.println(report);
		Files.writeString(this.options.out.resolve("tail-latency.md"), report, StandardCharsets.UTF_8);
		List<LatencyChart.Series> series = new ArrayList<>();
		for (Row row : rows) {
			double[] millis = new double[CHART_PERCENTILES.length];
			for (int i = 0; i < millis.length; i++) {
				millis[i] = millis(row.latencies, CHART_PERCENTILES[i]);
			}
			series.add(new LatencyChart.Series(row.scenario.describe(this.options), row.scenario.color,
					row.scenario.scrapers(this.options) > 1, millis));
		}
		LatencyChart.write(this.options.out.resolve("tail-latency.png"),
				"GET /hello latency while the application is scraped",
				String.format(Locale.ROOT,
						"%d req/s open loop over %d connections, %d series, a scrape every %s s per scraper, "
								+ "-Xmx%s G1, %s s measured per scenario",
						this.options.rate, this.options.connections, this.options.series,
						seconds(this.options.interval), this.options.heap, seconds(this.options.duration)),
				CHART_COLUMNS, series);
		System.out.println("Wrote " + this.options.out.resolve("tail-latency.md") + " and "
				+ this.options.out.resolve("tail-latency.png"));
	}

	private Row run(Scenario scenario, Path directory, String name) throws Exception {
		Path gcLog = directory.resolve(name + "-gc.log");
		Files.deleteIfExists(gcLog);
		List<String> jvm = List.of("-Xms" + this.options.heap, "-Xmx" + this.options.heap, "-XX:+UseG1GC",
				GcLog.option(gcLog));
		List<String> arguments = new ArrayList<>();
		arguments.add("--demo.series=" + this.options.series);
		arguments.add("--leanscrape.enabled=" + !scenario.boot);
		arguments.addAll(scenario.arguments);
		ExecutorService scrapeExecutor = Executors.newFixedThreadPool(4, daemon("scrape-client"));
		try (DemoProcess demo = DemoProcess.start(jvm, arguments, directory.resolve(name + "-app.log"),
				STARTUP_TIMEOUT)) {
			// The scrapers share a client; the measured requests have connections of
			// their own.
			HttpClient scrapeClient = client(scrapeExecutor);
			List<ScrapeLoop> scrapers = new ArrayList<>();
			List<Thread> threads = new ArrayList<>();
			Random phases = new Random(42);
			long first = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
			for (int i = 0; i < scenario.scrapers(this.options); i++) {
				long phase = this.options.spread ? (long) (phases.nextDouble() * this.options.interval.toNanos()) : 0;
				ScrapeLoop scraper = new ScrapeLoop(scrapeClient, demo.uri("/actuator/prometheus"),
						this.options.interval, this.options.scrapeTimeout, first + phase);
				scrapers.add(scraper);
				Thread thread = new Thread(scraper, "scraper-" + i);
				thread.setDaemon(true);
				threads.add(thread);
				thread.start();
			}
			long[] window = new long[2];
			double[] load = new double[2];
			OpenLoopLoad.Result result = new OpenLoopLoad("127.0.0.1", demo.port(), "/hello", this.options.rate,
					this.options.connections)
				.run(this.options.warmup.toNanos(), this.options.duration.toNanos(), new OpenLoopLoad.Window() {

					@Override
					public void started() {
						window[0] = System.currentTimeMillis();
						load[0] = loadAverage();
						scrapers.forEach(ScrapeLoop::measureFromNow);
					}

					@Override
					public void ended() {
						window[1] = System.currentTimeMillis();
						load[1] = loadAverage();
						scrapers.forEach(ScrapeLoop::measureUntilNow);
					}

				});
			scrapers.forEach(ScrapeLoop::stop);
			for (Thread thread : threads) {
				// A scrape under way ends by its timeout.
				thread.join(this.options.scrapeTimeout.toMillis() + 5_000);
			}
			ScrapeLoop.Counts scrapes = new ScrapeLoop.Counts(0, 0, 0, 0);
			for (ScrapeLoop scraper : scrapers) {
				scrapes = scrapes.plus(scraper.counts());
			}
			boolean alive = demo.isAlive();
			boolean outOfMemory = demo.output().contains("OutOfMemoryError");
			GcLog.Pauses pauses = GcLog.pauses(gcLog, window[0], window[1]);
			try (PrintStream out = new PrintStream(Files.newOutputStream(directory.resolve(name + ".hgrm")), true,
					StandardCharsets.UTF_8)) {
				result.latencies().outputPercentileDistribution(out, 1_000_000.0);
			}
			return new Row(scenario, result.latencies(), result.requests(), result.errors(), pauses, scrapes, load[0],
					load[1], alive && !outOfMemory);
		}
		finally {
			scrapeExecutor.shutdownNow();
		}
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

	private String report(List<Row> rows, String date, String arguments) {
		// Each row is compared with the last run without scraping before it, or the
		// first.
		Row baseline = null;
		for (Row row : rows) {
			if (baseline == null && row.scenario.scrapers(this.options) == 0) {
				baseline = row;
			}
		}
		StringBuilder md = new StringBuilder();
		md.append(
				"| Scenario | p50 | p99 | p99.9 | max | p99.9 / no scrape | GC pauses in window: total (count, longest)")
			.append(" | Scrapes: 200 / 503 / failed (mean 200) | Requests (failed) | Load avg |\n");
		md.append("|---|---:|---:|---:|---:|---:|---|---|---|---|\n");
		for (Row row : rows) {
			if (row.scenario.scrapers(this.options) == 0) {
				baseline = row;
			}
			double times = (baseline != null) ? millis(row.latencies, 99.9) / millis(baseline.latencies, 99.9) : 0;
			String ratio = (baseline == null) ? ""
					: String.format(Locale.ROOT, (times >= 10) ? "%.0f×" : "%.2f×", times);
			String scrapes = (row.scenario.scrapers(this.options) == 0) ? "–"
					: String.format(Locale.ROOT, "%d / %d / %d (%s ms)", row.scrapes.ok(), row.scrapes.rejected(),
							row.scrapes.failed(),
							(row.scrapes.ok() > 0) ? format(row.scrapes.okNanos() / 1e6 / row.scrapes.ok()) : "–");
			md.append(String.format(Locale.ROOT,
					"| %s%s | %s ms | %s ms | %s ms | %s ms | %s | %s ms (%d, %s ms) | %s | %d (%d) | %.1f–%.1f |%n",
					row.scenario.describe(this.options), row.healthy ? "" : " (application died or ran out of memory)",
					format(millis(row.latencies, 50)), format(millis(row.latencies, 99)),
					format(millis(row.latencies, 99.9)), format(millis(row.latencies, 100)), ratio,
					format(row.pauses.totalMillis()), row.pauses.count(), format(row.pauses.maxMillis()), scrapes,
					row.requests, row.errors, row.loadBefore, row.loadAfter));
		}
		StringBuilder out = new StringBuilder();
		out.append("# Tail latency under scraping\n\n");
		out.append("`GET /hello` of the demo application, ")
			.append(this.options.rate)
			.append(" requests per second open loop over ")
			.append(this.options.connections)
			.append(" keep-alive connections (latency from when each request was due), ")
			.append(this.options.series)
			.append(" series, Prometheus-like scrapers every ")
			.append(seconds(this.options.interval))
			.append(" s (OpenMetrics, gzip, scrape timeout ")
			.append(seconds(this.options.scrapeTimeout))
			.append(" s")
			.append(this.options.spread ? ", storm scrapers at random phases" : ", scrapers aligned")
			.append("). Each scenario: a new JVM with -Xms")
			.append(this.options.heap)
			.append(" -Xmx")
			.append(this.options.heap)
			.append(" -XX:+UseG1GC, ")
			.append(seconds(this.options.warmup))
			.append(" s warm-up, ")
			.append(seconds(this.options.duration))
			.append(" s measured.\n\n");
		out.append("- Date: ").append(date).append('\n');
		out.append("- Machine: ").append(machine()).append('\n');
		out.append("- JDK: ")
			.append(System.getProperty("java.vm.name"))
			.append(' ')
			.append(System.getProperty("java.runtime.version"))
			.append(" (the application and the load generator)\n");
		out.append("- Command: `").append(COMMAND);
		if (!arguments.isBlank()) {
			out.append(" -Dtail-latency.args=\"").append(arguments).append('"');
		}
		out.append("`\n");
		out.append("- Load average: of the whole machine, at the start and end of each measurement.\n\n");
		out.append(md);
		return out.toString();
	}

	private static String machine() {
		String cpu = null;
		try {
			for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					cpu = line.substring(line.indexOf(':') + 1).trim();
					break;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux: the processor count alone.
		}
		return String.format(Locale.ROOT, "%s %s, %d processors%s", System.getProperty("os.name"),
				System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
				(cpu != null) ? " (" + cpu + ")" : "");
	}

	private static double millis(Histogram histogram, double percentile) {
		long nanos = (percentile >= 100) ? histogram.getMaxValue() : histogram.getValueAtPercentile(percentile);
		return nanos / 1e6;
	}

	private static String format(double millis) {
		if (millis >= 100) {
			return String.format(Locale.ROOT, "%.0f", millis);
		}
		if (millis >= 10) {
			return String.format(Locale.ROOT, "%.1f", millis);
		}
		return String.format(Locale.ROOT, "%.2f", millis);
	}

	private static String seconds(Duration duration) {
		double seconds = duration.toMillis() / 1000.0;
		return (seconds == Math.rint(seconds)) ? Long.toString((long) seconds) : Double.toString(seconds);
	}

	/**
	 * A scenario: which endpoint serves the scrapes and how many scrapers there are.
	 */
	private enum Scenario {

		NO_SCRAPE("no-scrape", "no scrape", false, 0, new Color(0x333333)),
		BOOT("boot", "Spring Boot", true, 1, new Color(0xe66100)),
		LEANSCRAPE("leanscrape", "leanscrape", false, 1, new Color(0x1f6fd1)),
		BOOT_STORM("boot-storm", "Spring Boot", true, -1, new Color(0xc0182a)),
		LEANSCRAPE_STORM("leanscrape-storm", "leanscrape", false, -1, new Color(0x2bb3c0)),
		/**
		 * Not run by default: the starter without compression, sending what Spring Boot's
		 * endpoint sends.
		 */
		LEANSCRAPE_NO_GZIP("leanscrape-no-gzip", "leanscrape without gzip", false, 1, new Color(0x8e44ad),
				"--leanscrape.compression.enabled=false");

		static final List<Scenario> DEFAULTS = List.of(NO_SCRAPE, BOOT, LEANSCRAPE, BOOT_STORM, LEANSCRAPE_STORM);

		private final String id;

		private final String label;

		private final boolean boot;

		private final int scrapers;

		private final Color color;

		private final List<String> arguments;

		Scenario(String id, String label, boolean boot, int scrapers, Color color, String... arguments) {
			this.id = id;
			this.label = label;
			this.boot = boot;
			this.scrapers = scrapers;
			this.color = color;
			this.arguments = List.of(arguments);
		}

		int scrapers(Options options) {
			return (this.scrapers < 0) ? options.storm : this.scrapers;
		}

		String describe(Options options) {
			int count = scrapers(options);
			if (count == 0) {
				return this.label;
			}
			return this.label + ", " + count + ((count == 1) ? " scraper" : " scrapers");
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

	private record Row(Scenario scenario, Histogram latencies, long requests, long errors, GcLog.Pauses pauses,
			ScrapeLoop.Counts scrapes, double loadBefore, double loadAfter, boolean healthy) {

		String summary() {
			return String.format(Locale.ROOT,
					"%d requests (%d failed): p50 %s ms, p99 %s ms, p99.9 %s ms, max %s ms; GC %d pauses, %s ms; "
							+ "scrapes %d ok, %d 503, %d failed; load %.1f-%.1f",
					this.requests, this.errors, format(millis(this.latencies, 50)), format(millis(this.latencies, 99)),
					format(millis(this.latencies, 99.9)), format(millis(this.latencies, 100)), this.pauses.count(),
					format(this.pauses.totalMillis()), this.scrapes.ok(), this.scrapes.rejected(),
					this.scrapes.failed(), this.loadBefore, this.loadAfter);
		}

	}

	/**
	 * The options of a run.
	 */
	private static final class Options {

		private List<Scenario> scenarios = Scenario.DEFAULTS;

		private Duration warmup = Duration.ofSeconds(20);

		private Duration duration = Duration.ofSeconds(30);

		private int rate = 2000;

		private int connections = 16;

		private int series = 100_000;

		private String heap = "1g";

		private int storm = 20;

		private Duration interval = Duration.ofSeconds(1);

		private Duration scrapeTimeout = Duration.ofSeconds(1);

		private boolean spread = true;

		private Path out = Paths.get("target");

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
					case "warmup" -> options.warmup = duration(value);
					case "duration" -> options.duration = duration(value);
					case "rate" -> options.rate = Integer.parseInt(value);
					case "connections" -> options.connections = Integer.parseInt(value);
					case "series" -> options.series = Integer.parseInt(value);
					case "heap" -> options.heap = value;
					case "storm" -> options.storm = Integer.parseInt(value);
					case "interval" -> options.interval = duration(value);
					case "scrape-timeout" -> options.scrapeTimeout = duration(value);
					case "phases" -> {
						if (!value.equals("spread") && !value.equals("aligned")) {
							throw new IllegalArgumentException("--phases is spread or aligned, not '" + value + "'");
						}
						options.spread = value.equals("spread");
					}
					case "out" -> options.out = Paths.get(value);
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
