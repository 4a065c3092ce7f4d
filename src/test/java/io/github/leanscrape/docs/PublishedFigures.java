package io.github.leanscrape.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every table and chart README.md and docs/ publish, made from the raw results committed
 * in {@code docs/jmh} and {@code docs/load}: the published documents hold each table
 * between {@code <!-- figures:name -->} and {@code <!-- /figures:name -->}, and this
 * class writes what belongs there. {@code PublishedFiguresTests} fails when a document
 * holds anything else; {@code main} rewrites the documents and redraws the charts:
 * {@code ./mvnw -q test-compile exec:java@figures}.
 *
 * @author leanscrape
 */
public final class PublishedFigures {

	/**
	 * The JMH rendering that runs over HTTP are compared with: OpenMetrics, 100,000
	 * series, the plain registry.
	 */
	private static final Map<String, String> RENDERING_100K = Map.of("configuration", "plain", "format", "openmetrics",
			"seriesCount", "100000");

	/** The header of the tables of experiments on the HTTP scrape. */
	private static final String EXPERIMENT_HEADER = "| the starter | Tomcat: floor, leanscrape (ms, median (forks))"
			+ " | Tomcat: above the floor, in JMH renderings | Netty: floor, leanscrape (ms, median (forks))"
			+ " | Netty: above the floor, in JMH renderings |\n|---|---:|---:|---:|---:|\n";

	/**
	 * The documents that publish figures.
	 */
	static final List<Path> DOCUMENTS = List.of(Path.of("README.md"), Path.of("docs", "http-scrape.md"),
			Path.of("docs", "tail-latency.md"), Path.of("docs", "bounded-memory.md"), Path.of("docs", "recording.md"));

	/**
	 * The target for the uncompressed scrape at 100,000 series: at most the floor plus
	 * this many JMH renderings.
	 */
	private static final double TARGET_IN_RENDERINGS = 1.3;

	private static final Path JMH = Path.of("docs", "jmh");

	private static final Path LOAD = Path.of("docs", "load");

	private static final Pattern BLOCK = Pattern
		.compile("(<!-- figures:([a-z0-9-]+) -->\n)(.*?)(<!-- /figures:\\2 -->)", Pattern.DOTALL);

	private final Path root;

	private PublishedFigures(Path root) {
		this.root = root;
	}

	/**
	 * Rewrite the published tables and redraw the charts from the raw results.
	 * @param args none
	 * @throws IOException if a raw result cannot be read or a document written
	 */
	public static void main(String[] args) throws IOException {
		System.setProperty("java.awt.headless", "true");
		PublishedFigures figures = new PublishedFigures(Path.of(""));
		Map<String, String> blocks = figures.blocks();
		for (Path document : DOCUMENTS) {
			String text = Files.readString(document, StandardCharsets.UTF_8).replace("\r\n", "\n");
			String rewritten = rewrite(text, blocks);
			if (!rewritten.equals(text)) {
				Files.writeString(document, rewritten, StandardCharsets.UTF_8);
				System.out.println("Rewrote " + document);
			}
		}
		figures.charts();
	}

	static PublishedFigures inWorkingDirectory() {
		return new PublishedFigures(Path.of(""));
	}

	/**
	 * Return a document with its blocks of figures replaced by what the raw results give.
	 * @param text the document
	 * @param blocks the blocks by name
	 * @return the document as it should be
	 */
	static String rewrite(String text, Map<String, String> blocks) {
		int opened = text.split("<!-- figures:", -1).length - 1;
		if (opened != names(text).size()) {
			throw new IllegalStateException("A block of figures is not closed, or opened twice");
		}
		Matcher matcher = BLOCK.matcher(text);
		StringBuilder out = new StringBuilder();
		while (matcher.find()) {
			String block = blocks.get(matcher.group(2));
			if (block == null) {
				throw new IllegalStateException("No figures named " + matcher.group(2));
			}
			matcher.appendReplacement(out, Matcher.quoteReplacement(matcher.group(1) + block + matcher.group(4)));
		}
		matcher.appendTail(out);
		return out.toString();
	}

	/**
	 * Return the names of the blocks a document holds.
	 * @param text the document
	 * @return the names
	 */
	static Set<String> names(String text) {
		Set<String> names = new TreeSet<>();
		Matcher matcher = BLOCK.matcher(text);
		while (matcher.find()) {
			names.add(matcher.group(2));
		}
		return names;
	}

	/**
	 * Make every block from the raw results.
	 * @return the blocks by name
	 * @throws IOException if a raw result cannot be read
	 */
	Map<String, String> blocks() throws IOException {
		Map<String, String> blocks = new LinkedHashMap<>();
		JmhResults bySeries = JmhResults.read(jmh("scrape-by-series.json"));
		blocks.put("headline", headline(bySeries));
		blocks.put("scrape-by-series", scrapeBySeries(bySeries, JmhResults.read(jmh("scrape-1m.json"))));
		blocks.put("scrape-configurations", scrapeConfigurations(JmhResults.read(jmh("scrape-100k-matrix.json")),
				JmhResults.read(jmh("scrape-100k-created.json"))));
		blocks.put("http-scrape", httpScrape());
		blocks.put("http-above-floor", httpAboveFloor(JmhResults.read(jmh("http-scrape.json")),
				JmhResults.read(jmh("http-scrape-zstd.json")), JmhResults.read(jmh("compression-100k.json")),
				Files.readString(jmh("http-scrape-sent.txt")) + Files.readString(jmh("http-scrape-zstd-sent.txt"))));
		blocks.put("http-scrape-cached", httpScrapeCached(JmhResults.read(jmh("http-scrape-cached.json")), bySeries));
		blocks.put("http-experiments",
				httpExperiments(JmhResults.read(jmh("http-scrape-cached.json")),
						JmhResults.read(jmh("http-scrape-without-yield.json")),
						JmhResults.read(jmh("http-scrape-on-event-loop.json")), bySeries));
		blocks.put("http-render-in-server",
				httpRenderInServer(Files.readString(jmh("http-render-timed-in-server.txt"))));
		blocks.put("http-streaming",
				httpExperimentBesideBaseline(JmhResults.read(jmh("http-scrape-streaming-baseline.json")),
						JmhResults.read(jmh("http-scrape-streaming.json")),
						"sending each chunk as soon as it is full"));
		blocks.put("http-direct-buffers",
				httpExperimentBesideBaseline(JmhResults.read(jmh("http-scrape-direct-baseline.json")),
						JmhResults.read(jmh("http-scrape-direct-buffers.json")),
						"each chunk copied into a retained direct buffer, sent without another copy"));
		blocks.put("http-direct-copies-bounded",
				httpDirectCopiesBounded(JmhResults.read(jmh("http-scrape-direct-copies-bounded.json"))));
		blocks.put("render-label-reads",
				renderLabelReads(jmhRuns("render-label-reads-before-1.json", "render-label-reads-after-1.json",
						"render-label-reads-after-2.json", "render-label-reads-before-2.json",
						"render-label-reads-protobuf-after.json", "render-label-reads-protobuf-before.json")));
		blocks.put("http-label-reads", httpRuns(
				List.of("run 1, now (labels read with the values)",
						"run 2, before (labels read as each line copies them)", "run 3, before", "run 4, now",
						"run 5, now", "run 6, before"),
				jmhRuns("http-scrape-label-reads-1.json", "http-scrape-label-reads-before-2.json",
						"http-scrape-label-reads-before-3.json", "http-scrape-label-reads-4.json",
						"http-scrape-label-reads-netty-5.json", "http-scrape-label-reads-netty-before-6.json")));
		blocks.put("http-netty-long-warmup",
				httpRuns(List.of("now, after 15 warmup iterations instead of 3", "now, after 25 warmup iterations"),
						jmhRuns("http-scrape-netty-long-warmup.json", "http-scrape-netty-warmup-25.json")));
		blocks.put("http-plan",
				httpRuns(
						List.of("before (the plan taken again, and the registry asked about each family, every scrape)",
								"now (the plan taken again only after meters changed)"),
						jmhRuns("http-scrape-plan-before.json", "http-scrape-plan-after.json")));
		blocks.put("http-timeline",
				httpTimeline(JmhResults.read(jmh("http-scrape-timeline.json")),
						Files.readString(jmh("http-scrape-timeline.txt")),
						JmhResults.read(jmh("http-scrape-timeline-warm.json")),
						Files.readString(jmh("http-scrape-timeline-warm.txt"))));
		blocks.put("http-warmed",
				httpRuns(
						List.of("each application first serving 30,000 scrapes of no family (warmRequests=30000)",
								"the same, Netty only, five forks",
								"the same, Netty only, five forks, with counts read through the adders (below)"),
						jmhRuns("http-scrape-warmed.json", "http-scrape-warmed-netty-5-forks.json",
								"http-scrape-warmed-netty-5-forks-now.json")));
		String[] timelineEndpoints = { "floor", "cached", "leanscrape" };
		blocks.put("http-timeline-now", httpTimelineOfOneRun(JmhResults.read(jmh("http-scrape-timeline-now.json")),
				Files.readString(jmh("http-scrape-timeline-now.txt")), timelineEndpoints, timelineEndpoints));
		// The cached endpoint also serving after a pause as long as a rendering: asleep,
		// spinning, or writing through memory.
		blocks.put("http-idle-core",
				httpTimelineOfOneRun(JmhResults.read(jmh("http-scrape-idle-core.json")),
						Files.readString(jmh("http-scrape-idle-core.txt")),
						new String[] { "floor", "cached", "cached-sleep", "cached-spin", "cached-sweep", "leanscrape" },
						new String[] { "floor", "cached", "cached, 8 ms asleep first", "cached, 8 ms spinning first",
								"cached, 8 ms writing through 40 MiB first", "leanscrape" }));
		blocks.put("http-counter-reads",
				httpCounterReads(
						List.of("1, now (counts read through the adders)",
								"2, before (counts read through the counters)", "3, now", "4, before"),
						jmhRuns("http-scrape-counter-reads-now-1.json", "http-scrape-counter-reads-before-1.json",
								"http-scrape-counter-reads-now-2.json", "http-scrape-counter-reads-before-2.json")));
		List<String> rounds = new ArrayList<>();
		for (int round = 1; round <= 18; round++) {
			rounds.add("http-scrape-rounds-" + round + ".json");
		}
		blocks.put("http-rounds", httpRounds(jmhRuns(rounds.toArray(new String[0]))));
		blocks.put("http-netty-writes-and-wakes", httpNettyWritesAndWakes(
				jmhRuns("http-scrape-netty-grouped-writes-as-is-1.json",
						"http-scrape-netty-grouped-writes-as-is-2.json"),
				jmhRuns("http-scrape-netty-grouped-writes-16-1.json", "http-scrape-netty-grouped-writes-16-2.json"),
				jmhRuns("http-scrape-netty-whole-body-1.json", "http-scrape-netty-whole-body-2.json",
						"http-scrape-netty-whole-body-3.json"),
				jmhRuns("http-scrape-netty-wake-ahead-1.json", "http-scrape-netty-wake-ahead-2.json",
						"http-scrape-netty-wake-ahead-3.json", "http-scrape-netty-wake-ahead-4.json",
						"http-scrape-netty-wake-ahead-5.json", "http-scrape-netty-wake-ahead-6.json")));
		blocks.put("http-tomcat-write-buffer",
				httpTomcatWriteBuffer(JmhResults.read(jmh("http-scrape-tomcat-write-buffer.json"))));
		blocks.put("caches-after-idle", cachesAfterIdle(JmhResults.read(jmh("caches-after-idle.json"))));
		blocks.put("http-nio-transport", httpNioTransport(JmhResults.read(jmh("http-scrape-nio-transport.json"))));
		blocks.put("render-cold-caches", renderColdCaches(JmhResults.read(jmh("scrape-render-cold-caches.json"))));
		blocks.put("render-cold-caches-now",
				renderColdCaches(JmhResults.read(jmh("scrape-render-cold-caches-now.json"))));
		blocks.put("http-render-caches", httpRenderCaches(JmhResults.read(jmh("http-scrape-render-caches.json"))));
		blocks.put("gzip-choices", gzipChoices(JmhResults.read(jmh("compression-gzip-choices.json")),
				Files.readString(jmh("compression-gzip-choices-sizes.txt"))));
		blocks.put("compression", compression(JmhResults.read(jmh("compression-100k.json")),
				Files.readString(jmh("compression-100k-sizes.txt"))));
		blocks.put("recording", recording(JmhResults.read(jmh("recording.json")),
				RecordingLoadRuns.read(List.of(load("recording-load-wrk-3-launches.txt"),
						load("recording-load-wrk-4-launches.txt"), load("recording-load-wrk-4-launches-run3.txt"),
						load("recording-load-wrk-4-launches-run4.txt")))));
		blocks.put("scrape-metrics", scrapeMetrics(JmhResults.read(jmh("recording.json"))));
		blocks.put("micrometer-next", micrometerNext(JmhResults.read(jmh("scrape-micrometer-1.18.0-M1.json"))));
		blocks.put("memory",
				memory(Files.readString(load("bounded-memory.txt")), Files.readString(load("retained-memory.txt"))));
		blocks.put("scrape-stages", scrapeStages(JmhResults.read(jmh("scrape-stages.json"))));
		blocks.put("demo-quick-start", demoQuickStart(Files.readString(load("demo-quick-start.txt"))));
		TailLatencyTrials trials = TailLatencyTrials.read(this.root.resolve(LOAD).resolve("tail-latency.tsv"));
		blocks.put("tail-latency",
				trials.table() + "\n" + provenance("docs/load/tail-latency.tsv", trials.header()) + "\n");
		TailLatencyTrials tenThousand = TailLatencyTrials.read(load("tail-latency-10k.tsv"));
		blocks.put("tail-latency-10k",
				tenThousand.table() + "\n" + provenance("docs/load/tail-latency-10k.tsv", tenThousand.header()) + "\n");
		TailLatencyTrials asItIs = TailLatencyTrials.read(load("tail-latency-render-priority-baseline.tsv"));
		TailLatencyTrials lowPriority = TailLatencyTrials.read(load("tail-latency-render-priority.tsv"));
		blocks.put("tail-latency-render-priority",
				"The starter as it is:\n\n" + asItIs.table() + "\n"
						+ provenance("docs/load/tail-latency-render-priority-baseline.tsv", asItIs.header())
						+ "\n\nRendering and compressing at the lowest priority (nice 19):\n\n" + lowPriority.table()
						+ "\n" + provenance("docs/load/tail-latency-render-priority.tsv", lowPriority.header()) + "\n");
		return blocks;
	}

	void charts() throws IOException {
		BenchmarkChart.write(JmhResults.read(jmh("scrape-by-series.json")), this.root.resolve("docs/jmh-chart.png"));
		TailLatencyTrials.read(this.root.resolve(LOAD).resolve("tail-latency.tsv"))
			.chart(this.root.resolve("docs/tail-latency.png"));
	}

	private Path load(String name) {
		return this.root.resolve(LOAD).resolve(name);
	}

	private Path jmh(String name) {
		return this.root.resolve(JMH).resolve(name);
	}

	private List<JmhResults> jmhRuns(String... names) throws IOException {
		List<JmhResults> runs = new ArrayList<>();
		for (String name : names) {
			runs.add(JmhResults.read(jmh(name)));
		}
		return runs;
	}

	private static String headline(JmhResults results) {
		JmhResults.Forks boot = results.find("boot", series("100000", "text"));
		JmhResults.Forks leanscrape = results.find("leanscrape", series("100000", "text"));
		return String.format(Locale.ROOT,
				"A 100,000-series text scrape that allocates %.0f MB through Spring Boot's endpoint allocates "
						+ "%.0f KB through the starter's (%s), in %s of the time (JMH, medians of %d forks).\n",
				boot.medianBytes() / 1e6, leanscrape.medianBytes() / 1e3,
				percent(leanscrape.medianBytes() / boot.medianBytes()),
				percent(leanscrape.medianTime() / boot.medianTime()), results.forkCount());
	}

	private static String scrapeBySeries(JmhResults results, JmhResults million) {
		StringBuilder md = new StringBuilder(timesHeader("Series"));
		for (String count : List.of("1000", "10000", "100000")) {
			for (String format : List.of("text", "openmetrics", "protobuf")) {
				md.append(timesRow(number(count), format, results.find("boot", series(count, format)),
						results.find("leanscrape", series(count, format))));
			}
		}
		for (String format : List.of("text", "openmetrics")) {
			JmhResults.Forks leanscrape = million.find("leanscrape", series("1000000", format));
			md.append(String.format(Locale.ROOT, "| 1,000,000 | %s (`-Xmx1g`) | not run | %s | not run | %s | | |\n",
					formatLabel(format), times(leanscrape), bytes(leanscrape.medianBytes())));
		}
		md.append('\n');
		md.append("Spring Boot's single iterations at 100,000 series, fastest to slowest over its forks:");
		String separator = " ";
		for (String format : List.of("text", "openmetrics", "protobuf")) {
			JmhResults.Forks boot = results.find("boot", series("100000", format));
			md.append(separator)
				.append(formatLabel(format))
				.append(' ')
				.append(millis(boot.fastestIteration()))
				.append('–')
				.append(millis(boot.slowestIteration()))
				.append(" ms");
			separator = ", ";
		}
		md.append(" (the starter's: ");
		separator = "";
		for (String format : List.of("text", "openmetrics", "protobuf")) {
			JmhResults.Forks leanscrape = results.find("leanscrape", series("100000", format));
			md.append(separator)
				.append(millis(leanscrape.fastestIteration()))
				.append('–')
				.append(millis(leanscrape.slowestIteration()))
				.append(" ms");
			separator = ", ";
		}
		md.append(").\n\n");
		md.append(provenance(results)).append('\n').append(provenance(million));
		return md.toString();
	}

	private static String scrapeConfigurations(JmhResults matrix, JmhResults created) {
		StringBuilder md = new StringBuilder(timesHeader("Configuration"));
		for (String configuration : List.of("plain", "tracing", "foreign", "created")) {
			JmhResults results = configuration.equals("created") ? created : matrix;
			List<String> formats = configuration.equals("created") ? List.of("text", "openmetrics")
					: List.of("text", "openmetrics", "protobuf");
			String first = configuration;
			for (String format : formats) {
				Map<String, String> params = Map.of("configuration", configuration, "format", format, "seriesCount",
						"100000");
				md.append(timesRow(first, format, results.find("boot", params), results.find("leanscrape", params)));
				first = "";
			}
		}
		md.append('\n').append(provenance(matrix)).append('\n').append(provenance(created));
		return md.toString();
	}

	private String httpScrape() throws IOException {
		JmhResults results = JmhResults.read(jmh("http-scrape.json"));
		JmhResults zstd = JmhResults.read(jmh("http-scrape-zstd.json"));
		String sent = Files.readString(jmh("http-scrape-sent.txt"))
				+ Files.readString(jmh("http-scrape-zstd-sent.txt"));
		StringBuilder md = new StringBuilder();
		md.append(
				"| Series | Server | Encoding | floor: ms | leanscrape: ms | Spring Boot: ms | leanscrape above the floor")
			.append(" | leanscrape: bytes allocated / sent | Spring Boot: bytes allocated / sent |\n");
		md.append("|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
		for (String count : List.of("10000", "100000")) {
			for (String server : List.of("tomcat", "netty")) {
				for (String encoding : List.of("identity", "gzip")) {
					md.append(httpRow(results, sent, count, server, encoding, true));
				}
			}
		}
		for (String server : List.of("tomcat", "netty")) {
			md.append(httpRow(zstd, sent, "100000", server, "zstd", false));
		}
		md.append('\n').append(provenance(results)).append('\n').append(provenance(zstd));
		return md.toString();
	}

	private static String httpRow(JmhResults results, String sent, String count, String server, String encoding,
			boolean withBoot) {
		JmhResults.Forks floor = results.find("scrape", http(count, server, encoding, "floor"));
		JmhResults.Forks leanscrape = results.find("scrape", http(count, server, encoding, "leanscrape"));
		String bootTimes = "";
		String bootBytes = "";
		if (withBoot) {
			JmhResults.Forks boot = results.find("scrape", http(count, server, encoding, "boot"));
			bootTimes = times(boot);
			bootBytes = bytes(boot.medianBytes()) + " / " + bytes(
					sent(sent, "server=" + server + " endpoint=boot encoding=" + encoding + " series=" + count));
		}
		return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", number(count),
				serverLabel(server), encoding, times(floor), times(leanscrape), bootTimes,
				millis(leanscrape.medianTime() - floor.medianTime()), bytes(leanscrape.medianBytes()),
				bytes(sent(sent,
						"server=" + server + " endpoint=leanscrape encoding=" + encoding + " series=" + count)),
				bootBytes);
	}

	private static String httpAboveFloor(JmhResults http, JmhResults zstd, JmhResults compression, String sent) {
		// The run that measured the scrapes rendered the same body in JMH too.
		double render = http.find("leanscrape", RENDERING_100K).medianTime();
		double[] above = new double[2];
		double[] gzip = new double[2];
		double[] compressing = new double[2];
		double[] gzipAbove = new double[2];
		double[] zstdTimes = new double[2];
		List<String> servers = List.of("tomcat", "netty");
		for (int i = 0; i < 2; i++) {
			String server = servers.get(i);
			double plain = http.find("scrape", http("100000", server, "identity", "leanscrape")).medianTime();
			above[i] = plain - http.find("scrape", http("100000", server, "identity", "floor")).medianTime();
			gzip[i] = http.find("scrape", http("100000", server, "gzip", "leanscrape")).medianTime();
			compressing[i] = gzip[i] - plain;
			gzipAbove[i] = gzip[i] - http.find("scrape", http("100000", server, "gzip", "floor")).medianTime()
					- above[i];
			zstdTimes[i] = zstd.find("scrape", http("100000", server, "zstd", "leanscrape")).medianTime();
		}
		double deflate = compression.find("compress", Map.of("codec", "gzip-1", "format", "openmetrics")).medianTime();
		double size = sent(sent, "server=tomcat endpoint=leanscrape encoding=zstd series=100000")
				/ sent(sent, "server=tomcat endpoint=leanscrape encoding=gzip series=100000");
		double gzipShare = sent(sent, "server=tomcat endpoint=leanscrape encoding=gzip series=100000")
				/ sent(sent, "server=tomcat endpoint=leanscrape encoding=identity series=100000");
		return String.format(Locale.ROOT,
				"Uncompressed, the starter's scrape at 100,000 series is the floor plus %s ms on Tomcat and %s ms on "
						+ "Netty, against %s ms to render the same body in JMH (`ScrapeBenchmark.leanscrape`, "
						+ "OpenMetrics, `plain`, in the same run): %.2f and %.2f times the rendering. With gzip, the "
						+ "scrape takes %s ms more than uncompressed on Tomcat and %s ms more on Netty while it sends "
						+ "%s of the bytes (%s and %s ms more above the floor); `CompressionBenchmark` below measures "
						+ "deflate of the same body alone at %s ms, in a run of its own. A scraper that asks for zstd "
						+ "gets the whole scrape in %s ms against %s on Tomcat and %s against %s on Netty, at %s of "
						+ "gzip's bytes.\n",
				millis(above[0]), millis(above[1]), millis(render), above[0] / render, above[1] / render,
				millis(compressing[0]), millis(compressing[1]), percent(gzipShare), millis(gzipAbove[0]),
				millis(gzipAbove[1]), millis(deflate), millis(zstdTimes[0]), millis(gzip[0]), millis(zstdTimes[1]),
				millis(gzip[1]), percent(size));
	}

	/**
	 * The bytes a trial sent: each fork printed its own, which vary by a few bytes
	 * (values grow); the median fork's.
	 */
	private static double sent(String sent, String trial) {
		List<Double> byForks = new ArrayList<>();
		Matcher line = Pattern.compile(Pattern.quote(trial) + " bytes=([0-9]+)").matcher(sent);
		while (line.find()) {
			byForks.add(Double.parseDouble(line.group(1)));
		}
		if (byForks.isEmpty()) {
			throw new IllegalStateException("No bytes sent recorded for " + trial);
		}
		return JmhResults.median(byForks);
	}

	private static String httpScrapeCached(JmhResults results, JmhResults bySeries) {
		double render = bySeries.find("leanscrape", series("100000", "openmetrics")).medianTime();
		StringBuilder md = new StringBuilder();
		md.append("| Server | floor: ms | cached: ms | leanscrape: ms | cached above the floor")
			.append(" | rendering (leanscrape above cached) | leanscrape above the floor, in JMH renderings |\n");
		md.append("|---|---:|---:|---:|---:|---:|---:|\n");
		for (String server : List.of("tomcat", "netty")) {
			UncompressedScrapes scrapes = UncompressedScrapes.of(results, server);
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.2f |\n", serverLabel(server),
					times(scrapes.floor()), times(scrapes.cached()), times(scrapes.leanscrape()),
					millis(scrapes.cached().medianTime() - scrapes.floor().medianTime()),
					millis(scrapes.leanscrape().medianTime() - scrapes.cached().medianTime()),
					inRenderings(scrapes.floor(), scrapes.leanscrape(), render)));
		}
		md.append(String.format(Locale.ROOT,
				"\nThe last column divides the starter's time above the floor by its JMH time to render the same "
						+ "body, %s ms (OpenMetrics, 100,000 series, README's first table), measured on the same machine.\n",
				millis(render)));
		md.append('\n').append(provenance(results)).append('\n').append(provenance(bySeries));
		return md.toString();
	}

	private static String httpExperiments(JmhResults committed, JmhResults withoutYield, JmhResults onEventLoop,
			JmhResults bySeries) {
		double render = bySeries.find("leanscrape", series("100000", "openmetrics")).medianTime();
		StringBuilder md = new StringBuilder();
		md.append(EXPERIMENT_HEADER);
		md.append(experimentRow("as it is", committed, render));
		md.append(experimentRow("without the per-chunk `Thread.yield()`", withoutYield, render));
		md.append(experimentRow("serving on the Netty event loop", onEventLoop, render));
		md.append('\n')
			.append(provenance(withoutYield))
			.append('\n')
			.append(provenance(onEventLoop))
			.append(String.format(Locale.ROOT,
					"\nJMH rendering: %s ms (OpenMetrics, 100,000 series, README's first table), as for the cached run.\n",
					millis(render)));
		return md.toString();
	}

	private static String httpRenderInServer(String raw) {
		Pattern section = Pattern.compile("# Parameters: \\(([^)]*)\\)\n((?:experiment: .*\n)+)");
		Pattern line = Pattern.compile("wall=([0-9]+)us cpu=([0-9]+)us");
		StringBuilder md = new StringBuilder();
		md.append("| where the rendering ran | wall: ms, median | thread CPU: ms, median |\n|---|---:|---:|\n");
		Matcher sections = section.matcher(raw);
		while (sections.find()) {
			String params = sections.group(1);
			String where = params.contains("server = tomcat") ? "Tomcat, on the request's thread"
					: params.contains("server = netty") ? "Netty, on a `leanscrape-scrape` thread"
							: "JMH, back to back (`ScrapeBenchmark.leanscrape`)";
			List<Double> wall = new ArrayList<>();
			List<Double> cpu = new ArrayList<>();
			Matcher lines = line.matcher(sections.group(2));
			// The first 200 renderings include the compiler's warm-up.
			lines.find();
			while (lines.find()) {
				wall.add(Double.parseDouble(lines.group(1)) / 1000);
				cpu.add(Double.parseDouble(lines.group(2)) / 1000);
			}
			md.append(String.format(Locale.ROOT, "| %s | %s | %s |\n", where, millis(JmhResults.median(wall)),
					millis(JmhResults.median(cpu))));
		}
		Map<String, String> run = RunRecord.comments(raw);
		md.append('\n').append(provenance("docs/jmh/http-render-timed-in-server.txt", run)).append('\n');
		return md.toString();
	}

	/**
	 * An experiment beside a run of the starter as it is, each run with its own JMH
	 * rendering to divide by.
	 */
	private static String httpExperimentBesideBaseline(JmhResults baseline, JmhResults changed, String change) {
		return httpRuns(List.of("as it is", change), List.of(baseline, changed));
	}

	/**
	 * Runs of the starter, a row each in the order given, each divided by its own JMH
	 * rendering.
	 */
	private static String httpRuns(List<String> labels, List<JmhResults> runs) {
		StringBuilder md = new StringBuilder(EXPERIMENT_HEADER);
		List<String> renders = new ArrayList<>();
		for (int i = 0; i < runs.size(); i++) {
			double render = runs.get(i).find("leanscrape", RENDERING_100K).medianTime();
			md.append(experimentRow(labels.get(i), runs.get(i), render));
			renders.add(millis(render) + " ms");
		}
		md.append('\n');
		for (JmhResults run : runs) {
			md.append(provenance(run)).append('\n');
		}
		if (renders.size() == 1) {
			md.append("JMH rendering, in the same run: ").append(renders.get(0)).append(".\n");
		}
		else {
			String last = renders.remove(renders.size() - 1);
			md.append(String.format(Locale.ROOT, "JMH rendering, in each run: %s and %s.\n", String.join(", ", renders),
					last));
		}
		return md.toString();
	}

	/**
	 * Runs before and after a change, each with the starter's rendering in JMH, in the
	 * application's JVM without HTTP ({@code in-process}), and over HTTP beside the
	 * floor.
	 */
	private static String httpCounterReads(List<String> labels, List<JmhResults> runs) {
		StringBuilder md = new StringBuilder("| run | JMH rendering: ms, median (forks)");
		md.append(columnsOfEachServer("rendering in the application's JVM, without HTTP (in-process): ms",
				"floor, leanscrape: ms", "above the floor, in JMH renderings"));
		md.append(" |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
		for (int i = 0; i < runs.size(); i++) {
			JmhResults run = runs.get(i);
			JmhResults.Forks rendering = run.find("leanscrape", RENDERING_100K);
			md.append("| ").append(labels.get(i)).append(" | ").append(times(rendering));
			for (String server : List.of("tomcat", "netty")) {
				JmhResults.Forks inProcess = run.find("scrape", http("100000", server, "identity", "in-process"));
				JmhResults.Forks floor = run.find("scrape", http("100000", server, "identity", "floor"));
				JmhResults.Forks leanscrape = run.find("scrape", http("100000", server, "identity", "leanscrape"));
				md.append(" | ").append(times(inProcess)).append(aboveFloor(floor, leanscrape, rendering.medianTime()));
			}
			md.append(" |\n");
		}
		md.append('\n');
		for (JmhResults run : runs) {
			md.append(provenance(run)).append('\n');
		}
		return md.toString();
	}

	/**
	 * The headings of the columns each server has in a table of HTTP runs, Tomcat's then
	 * Netty's.
	 */
	private static String columnsOfEachServer(String... columns) {
		StringBuilder headings = new StringBuilder();
		for (String server : List.of("Tomcat", "Netty")) {
			for (String column : columns) {
				headings.append(" | ").append(server).append(": ").append(column);
			}
		}
		return headings.toString();
	}

	/**
	 * Interleaved rounds, each one fork of the JMH rendering and of the floor and the
	 * starter's scrape on each server, one after another: each round's time above the
	 * floor divided by its own JMH rendering, then the median and the range of the
	 * rounds, and in how many the target held.
	 */
	private static String httpRounds(List<JmhResults> rounds) {
		StringBuilder md = new StringBuilder("| round | JMH rendering: ms");
		md.append(columnsOfEachServer("floor, leanscrape: ms", "above the floor, in JMH renderings"));
		md.append(" |\n|---:|---:|---:|---:|---:|---:|\n");
		List<Double> renders = new ArrayList<>();
		Map<String, List<Double>> ratios = new LinkedHashMap<>();
		for (int i = 0; i < rounds.size(); i++) {
			JmhResults round = rounds.get(i);
			double render = round.find("leanscrape", RENDERING_100K).medianTime();
			renders.add(render);
			md.append("| ").append(i + 1).append(" | ").append(millis(render));
			for (String server : List.of("tomcat", "netty")) {
				JmhResults.Forks floor = round.find("scrape", http("100000", server, "identity", "floor"));
				JmhResults.Forks leanscrape = round.find("scrape", http("100000", server, "identity", "leanscrape"));
				double ratio = inRenderings(floor, leanscrape, render);
				ratios.computeIfAbsent(server, (key) -> new ArrayList<>()).add(ratio);
				md.append(String.format(Locale.ROOT, " | %s, %s | %.2f", millis(floor.medianTime()),
						millis(leanscrape.medianTime()), ratio));
			}
			md.append(" |\n");
		}
		md.append("| median (least–most) | ").append(medianAndRange(renders, "–"));
		for (List<Double> server : ratios.values()) {
			md.append(String.format(Locale.ROOT, " |  | %.2f (%.2f–%.2f)", JmhResults.median(server),
					Collections.min(server), Collections.max(server)));
		}
		md.append(" |\n\n");
		List<String> within = new ArrayList<>();
		for (Map.Entry<String, List<Double>> server : ratios.entrySet()) {
			int count = 0;
			for (double ratio : server.getValue()) {
				if (ratio <= TARGET_IN_RENDERINGS) {
					count++;
				}
			}
			within.add(String.format(Locale.ROOT, "%s in %d of %d", serverLabel(server.getKey()), count,
					server.getValue().size()));
		}
		md.append(String.format(Locale.ROOT, "Within the floor plus %.1f JMH renderings: ", TARGET_IN_RENDERINGS))
			.append(String.join(", ", within))
			.append(" rounds.\n\n");
		for (JmhResults round : rounds) {
			md.append(provenance(round)).append('\n');
		}
		return md.toString();
	}

	/**
	 * Where a scrape's time goes on Netty: each phase of the timeline experiment, as the
	 * median of the measurement iterations' averages, for each endpoint, in a run as the
	 * benchmark is and in one whose applications served scrapes of no family first.
	 */
	private static String httpTimeline(JmhResults plain, String plainLines, JmhResults warm, String warmLines) {
		StringBuilder md = new StringBuilder(
				"| Netty, 100,000 series, uncompressed: ms, median of iterations | floor | cached | leanscrape | floor, warmed | cached, warmed | leanscrape, warmed |\n");
		md.append("|---|---:|---:|---:|---:|---:|---:|\n");
		timelineRows(md, List.of(timelinePhases(plainLines), timelinePhases(warmLines)),
				new String[] { "floor", "cached", "leanscrape" });
		md.append('\n').append(provenance(plain)).append('\n').append(provenance(warm)).append('\n');
		return md.append(jmhRendering("in the first run", plain)).toString();
	}

	/**
	 * The timeline of one run, the applications warmed, with each endpoint's scrape as
	 * JMH timed it and its time above the floor, beside the JMH rendering of the same
	 * run.
	 * @param run the run's JMH results
	 * @param lines the timeline lines printed in the run
	 * @param endpoints the endpoints, in the order of the columns
	 * @param columns the columns' headings, one per endpoint
	 * @return the table and its provenance
	 */
	private static String httpTimelineOfOneRun(JmhResults run, String lines, String[] endpoints, String[] columns) {
		StringBuilder md = new StringBuilder("| Netty, 100,000 series, uncompressed, warmed: ms, median of iterations");
		for (String column : columns) {
			md.append(" | ").append(column);
		}
		md.append(" |\n|---|").append("---:|".repeat(columns.length)).append('\n');
		timelineRows(md, List.of(timelinePhases(lines)), endpoints);
		scrapeRows(md, run, endpoints);
		md.append('\n').append(provenance(run)).append('\n');
		return md.append(jmhRendering("in the same run", run)).toString();
	}

	/**
	 * The rows under a timeline of each endpoint's scrape as JMH timed it in the same
	 * run, and its time above the floor in JMH renderings.
	 */
	private static void scrapeRows(StringBuilder md, JmhResults run, String[] endpoints) {
		double render = run.find("leanscrape", RENDERING_100K).medianTime();
		JmhResults.Forks floor = run.find("scrape", http("100000", "netty", "identity", "floor"));
		md.append("| the scrape, as JMH times it: ms, median (forks)");
		StringBuilder above = new StringBuilder("| above the floor, in JMH renderings");
		for (String endpoint : endpoints) {
			JmhResults.Forks scrape = run.find("scrape", http("100000", "netty", "identity", endpoint));
			md.append(" | ").append(times(scrape));
			above.append(endpoint.equals("floor") ? " | –"
					: String.format(Locale.ROOT, " | %.2f", inRenderings(floor, scrape, render)));
		}
		md.append(" |\n").append(above).append(" |\n");
	}

	private static String jmhRendering(String which, JmhResults run) {
		return "JMH rendering, " + which + ": " + millis(run.find("leanscrape", RENDERING_100K).medianTime())
				+ " ms.\n";
	}

	private static void timelineRows(StringBuilder md, List<Map<String, Map<String, List<Double>>>> runs,
			String[] endpoints) {
		String[][] phases = { { "to-filter", "request sent → the starter's web filter" },
				{ "to-writer",
						"web filter → the starter's message writer (Spring's dispatch, the actuator's operation)" },
				{ "hop", "message writer → the scrape's thread" }, { "render", "serving the scrape: rendering (wall)" },
				{ "render-cpu", "rendering (its thread's CPU time)" },
				{ "to-first-byte", "rendering done → status line read by the client" },
				{ "to-last-byte", "status line → last byte read (the transfer)" },
				{ "total", "the whole exchange, as the client times it" } };
		for (String[] phase : phases) {
			md.append("| ").append(phase[1]);
			for (Map<String, Map<String, List<Double>>> run : runs) {
				for (String endpoint : endpoints) {
					boolean applies = !endpoint.equals("floor") || phase[0].equals("to-filter")
							|| phase[0].equals("to-last-byte") || phase[0].equals("total");
					md.append(" | ").append(applies ? millis(JmhResults.median(run.get(endpoint).get(phase[0]))) : "–");
				}
			}
			md.append(" |\n");
		}
	}

	/**
	 * Read the timeline experiment's lines: each phase's averages, by endpoint.
	 */
	private static Map<String, Map<String, List<Double>>> timelinePhases(String lines) {
		Map<String, Map<String, List<Double>>> phases = new LinkedHashMap<>();
		for (String line : lines.split("\n")) {
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			Map<String, List<Double>> byPhase = null;
			for (String field : line.trim().split(" ")) {
				int equals = field.indexOf('=');
				String name = field.substring(0, equals);
				String value = field.substring(equals + 1);
				if (name.equals("endpoint")) {
					byPhase = phases.computeIfAbsent(value, (endpoint) -> new LinkedHashMap<>());
				}
				else if (byPhase != null && !name.equals("fork") && !name.equals("iteration")) {
					byPhase.computeIfAbsent(name, (phase) -> new ArrayList<>()).add(Double.parseDouble(value));
				}
			}
		}
		return phases;
	}

	/**
	 * The bounded direct copies on Netty beside the starter as it is, in one run.
	 */
	private static String httpDirectCopiesBounded(JmhResults results) {
		double render = results.find("leanscrape", RENDERING_100K).medianTime();
		JmhResults.Forks floor = results.find("scrape", http("100000", "netty", "identity", "floor"));
		StringBuilder md = new StringBuilder();
		md.append(
				"| the starter (Netty, 100,000 series, uncompressed) | ms, median (forks) | above the floor, in JMH renderings |\n")
			.append("|---|---:|---:|\n");
		md.append("| the floor | ").append(times(floor)).append(" | |\n");
		for (String endpoint : List.of("heap-chunks", "leanscrape")) {
			JmhResults.Forks scrape = results.find("scrape", http("100000", "netty", "identity", endpoint));
			md.append(String.format(Locale.ROOT, "| %s | %s | %.2f |\n",
					endpoint.equals("heap-chunks") ? "as it is (`heap-chunks`: chunks on the heap, copied by Netty)"
							: "each chunk copied into a direct buffer from a pool of at most 32 MB",
					times(scrape), inRenderings(floor, scrape, render)));
		}
		md.append('\n')
			.append(provenance(results))
			.append(String.format(Locale.ROOT, "\nJMH rendering, in the same run: %s ms.\n", millis(render)));
		return md.toString();
	}

	/**
	 * Renderings before and after the labels are read with the values, a row per run in
	 * the order given, told apart by the raw files' names.
	 */
	private static String renderLabelReads(List<JmhResults> runs) {
		String benchmark = "ColdCacheScrapeRenderBenchmark.leanscrape";
		List<String> swept = runs.get(0).paramValues(benchmark, "sweptMebibytes");
		StringBuilder md = new StringBuilder("| run | format | labels read");
		for (String mebibytes : swept) {
			md.append(" | ")
				.append(mebibytes.equals("0") ? "back to back" : "after " + mebibytes + " MiB swept")
				.append(": ms, median (forks)");
		}
		md.append(" |\n|---:|---|---|").append("---:|".repeat(swept.size())).append('\n');
		for (int i = 0; i < runs.size(); i++) {
			JmhResults run = runs.get(i);
			boolean after = run.file().getFileName().toString().contains("-after");
			md.append("| ")
				.append(i + 1)
				.append(" | ")
				.append(formatLabel(run.paramValues(benchmark, "format").get(0)))
				.append(" | ")
				.append(after ? "with the values (`touchLabels`)" : "as each line copies them");
			for (String mebibytes : swept) {
				md.append(" | ").append(times(run.find(benchmark, Map.of("sweptMebibytes", mebibytes))));
			}
			md.append(" |\n");
		}
		md.append('\n');
		for (JmhResults run : runs) {
			md.append(provenance(run)).append('\n');
		}
		return md.toString();
	}

	/**
	 * The floor and the starter's scrape on Tomcat for each size of Tomcat's socket write
	 * buffer.
	 */
	private static String httpTomcatWriteBuffer(JmhResults results) {
		StringBuilder md = new StringBuilder(
				"| Tomcat's socket write buffer (`socket.appWriteBufSize`) | floor: ms, median (forks) | leanscrape: ms, median (forks) | leanscrape above the floor: ms |\n");
		md.append("|---|---:|---:|---:|\n");
		for (String size : results.paramValues("scrape", "tomcatWriteBuffer")) {
			Map<String, String> params = new LinkedHashMap<>(http("100000", "tomcat", "identity", "floor"));
			params.put("tomcatWriteBuffer", size);
			JmhResults.Forks floor = results.find("scrape", params);
			params.put("endpoint", "leanscrape");
			JmhResults.Forks leanscrape = results.find("scrape", params);
			long kibibytes = Long.parseLong(size) / 1024;
			String label = (kibibytes == 0) ? "8 KiB (Tomcat's default)"
					: (kibibytes % 1024 == 0) ? (kibibytes / 1024) + " MiB" : kibibytes + " KiB";
			md.append("| ")
				.append(label)
				.append(" | ")
				.append(times(floor))
				.append(" | ")
				.append(times(leanscrape))
				.append(" | ")
				.append(millis(leanscrape.medianTime() - floor.medianTime()))
				.append(" |\n");
		}
		return md.append('\n').append(provenance(results)).toString();
	}

	/**
	 * Two changes to how the body reaches Netty, in three settings, each against the
	 * starter as it is in paired runs (a run of each, or a round with one fork of each):
	 * for each endpoint the median and the range over the pairs of the starter as it is,
	 * of the changed one, and of their difference.
	 */
	private static String httpNettyWritesAndWakes(List<JmhResults> asIs, List<JmhResults> grouped,
			List<JmhResults> wholeBody, List<JmhResults> wakeAhead) {
		StringBuilder md = new StringBuilder(
				"| the change (Netty, 100,000 series, uncompressed, warmed) | endpoint | pairs | as it is: ms, median (least to most) | with the change: ms, median (least to most) | with the change less as it is: ms, median (least to most) |\n");
		md.append("|---|---|---:|---:|---:|---:|\n");
		for (String endpoint : List.of("cached", "leanscrape")) {
			md.append(pairsRow("each write joining 16 chunks (1 MiB)", endpoint, nettyTimes(asIs, endpoint, Map.of()),
					nettyTimes(grouped, endpoint, Map.of())));
		}
		for (String endpoint : List.of("cached", "leanscrape")) {
			md.append(pairsRow("the whole body in one write, as the floor's", endpoint,
					nettyTimes(wholeBody, endpoint, Map.of("group", "1")),
					nettyTimes(wholeBody, endpoint, Map.of("group", "1000"))));
		}
		md.append(pairsRow("the event loop woken 0.6 ms before the rendering's expected end", "leanscrape",
				nettyTimes(wakeAhead, "leanscrape", Map.of("prewake", "0")),
				nettyTimes(wakeAhead, "leanscrape", Map.of("prewake", "600"))));
		md.append('\n');
		for (List<JmhResults> runs : List.of(asIs, grouped, wholeBody, wakeAhead)) {
			for (JmhResults run : runs) {
				md.append(provenance(run)).append('\n');
			}
		}
		return md.toString();
	}

	/**
	 * The uncompressed scrape's time at 100,000 series on Netty in each run, for an
	 * endpoint and the parameters of an experiment.
	 */
	private static List<Double> nettyTimes(List<JmhResults> runs, String endpoint, Map<String, String> experiment) {
		Map<String, String> params = new LinkedHashMap<>(http("100000", "netty", "identity", endpoint));
		params.putAll(experiment);
		List<Double> times = new ArrayList<>();
		for (JmhResults run : runs) {
			times.add(run.find("scrape", params).medianTime());
		}
		return times;
	}

	private static String pairsRow(String change, String endpoint, List<Double> before, List<Double> after) {
		List<Double> differences = new ArrayList<>();
		for (int i = 0; i < before.size(); i++) {
			differences.add(after.get(i) - before.get(i));
		}
		return "| " + change + " | " + endpoint + " | " + before.size() + " | " + medianAndRange(before, " to ") + " | "
				+ medianAndRange(after, " to ") + " | " + medianAndRange(differences, " to ") + " |\n";
	}

	/**
	 * Times in milliseconds as their median and, in brackets, the least and the most.
	 */
	private static String medianAndRange(List<Double> values, String between) {
		return millis(JmhResults.median(values)) + " (" + millis(Collections.min(values)) + between
				+ millis(Collections.max(values)) + ")";
	}

	/**
	 * A read of a thread's own data after it idled, against the same read with no idle,
	 * for each size of the data.
	 */
	private static String cachesAfterIdle(JmhResults results) {
		List<String> sizes = results.paramValues("read", "kibibytes");
		StringBuilder md = new StringBuilder("| parked before the read: µs");
		for (String size : sizes) {
			md.append(" | ").append(size).append(" KiB read: µs, median (forks) | / no idle");
		}
		md.append(" |\n|---:").append("|---:|---:".repeat(sizes.size())).append("|\n");
		double[] warm = new double[sizes.size()];
		for (int i = 0; i < warm.length; i++) {
			warm[i] = results.find("read", Map.of("kibibytes", sizes.get(i), "idleMicros", "0")).medianTime();
		}
		for (String idle : results.paramValues("read", "idleMicros")) {
			md.append("| ").append(number(idle));
			for (int i = 0; i < warm.length; i++) {
				JmhResults.Forks read = results.find("read", Map.of("kibibytes", sizes.get(i), "idleMicros", idle));
				md.append(String.format(Locale.ROOT, " | %s (%s–%s) | %.2f", threeFigures(read.medianTime()),
						threeFigures(read.fastestFork()), threeFigures(read.slowestFork()),
						read.medianTime() / warm[i]));
			}
			md.append(" |\n");
		}
		return md.append('\n').append(provenance(results)).toString();
	}

	private static String httpNioTransport(JmhResults results) {
		JmhResults.Forks floor = results.find("scrape", http("100000", "netty", "identity", "floor"));
		JmhResults.Forks leanscrape = results.find("scrape", http("100000", "netty", "identity", "leanscrape"));
		return String.format(Locale.ROOT,
				"With Reactor Netty's NIO transport instead of epoll (`-Dreactor.netty.native=false`), 100,000 "
						+ "series uncompressed: the floor %s ms, the starter's scrape %s ms.\n\n%s\n",
				times(floor), times(leanscrape), provenance(results));
	}

	private static String renderColdCaches(JmhResults results) {
		String benchmark = "ColdCacheScrapeRenderBenchmark.leanscrape";
		StringBuilder md = new StringBuilder();
		md.append("| MiB swept before each rendering | ms, median (forks) | / none swept |\n|---:|---:|---:|\n");
		double none = results.find(benchmark, Map.of("sweptMebibytes", "0")).medianTime();
		for (String mebibytes : results.paramValues(benchmark, "sweptMebibytes")) {
			JmhResults.Forks forks = results.find(benchmark, Map.of("sweptMebibytes", mebibytes));
			md.append(String.format(Locale.ROOT, "| %s | %s | %.2f |\n", mebibytes, times(forks),
					forks.medianTime() / none));
		}
		md.append('\n').append(provenance(results));
		return md.toString();
	}

	private static String httpRenderCaches(JmhResults results) {
		Map<String, String> body = series("100000", "openmetrics");
		JmhResults.Forks warm = results.find("ScrapeBenchmark.leanscrape", body);
		List<String> swept = results.paramValues("ColdCacheScrapeRenderBenchmark.leanscrape", "sweptMebibytes");
		List<JmhResults.Forks> cold = new ArrayList<>();
		for (String mebibytes : swept) {
			Map<String, String> params = new LinkedHashMap<>(body);
			params.put("sweptMebibytes", mebibytes);
			cold.add(results.find("ColdCacheScrapeRenderBenchmark.leanscrape", params));
		}
		StringBuilder md = new StringBuilder();
		md.append("| JMH rendering (OpenMetrics, 100,000 series) | ms, median (forks) |\n|---|---:|\n");
		md.append("| back to back (`ScrapeBenchmark.leanscrape`) | ").append(times(warm)).append(" |\n");
		for (int i = 0; i < swept.size(); i++) {
			md.append("| after ")
				.append(swept.get(i))
				.append(" MiB swept through the caches (`ColdCacheScrapeRenderBenchmark`) | ")
				.append(times(cold.get(i)))
				.append(" |\n");
		}
		md.append("\n| Server | floor: ms | cached: ms | leanscrape: ms | leanscrape above the floor: ms")
			.append(" | in JMH renderings: back to back");
		for (String mebibytes : swept) {
			md.append(" | after ").append(mebibytes).append(" MiB swept");
		}
		md.append(" |\n|---|---:|---:|---:|---:|---:").append("|---:".repeat(swept.size())).append("|\n");
		for (String server : List.of("tomcat", "netty")) {
			UncompressedScrapes scrapes = UncompressedScrapes.of(results, server);
			double above = scrapes.aboveFloor();
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f", serverLabel(server),
					times(scrapes.floor()), times(scrapes.cached()), times(scrapes.leanscrape()), millis(above),
					above / warm.medianTime()));
			for (JmhResults.Forks rendering : cold) {
				md.append(String.format(Locale.ROOT, " | %.2f", above / rendering.medianTime()));
			}
			md.append(" |\n");
		}
		md.append('\n').append(provenance(results));
		return md.toString();
	}

	private static String experimentRow(String label, JmhResults results, double render) {
		StringBuilder row = new StringBuilder("| ").append(label);
		for (String server : List.of("tomcat", "netty")) {
			JmhResults.Forks floor = results.findOrNull("scrape", http("100000", server, "identity", "floor"));
			JmhResults.Forks leanscrape = results.findOrNull("scrape",
					http("100000", server, "identity", "leanscrape"));
			if (floor == null || leanscrape == null) {
				row.append(" | – | –");
				continue;
			}
			row.append(aboveFloor(floor, leanscrape, render));
		}
		return row.append(" |\n").toString();
	}

	/**
	 * The cells of one server in a table of HTTP runs: the floor's and the starter's
	 * times, and the starter's time above the floor in JMH renderings.
	 */
	private static String aboveFloor(JmhResults.Forks floor, JmhResults.Forks leanscrape, double render) {
		return String.format(Locale.ROOT, " | %s, %s | %.2f", times(floor), times(leanscrape),
				inRenderings(floor, leanscrape, render));
	}

	/**
	 * How far a scrape is above the floor, in renderings: the target's measure.
	 */
	private static double inRenderings(JmhResults.Forks floor, JmhResults.Forks scrape, double render) {
		return (scrape.medianTime() - floor.medianTime()) / render;
	}

	private static String compression(JmhResults results, String sizes) {
		StringBuilder md = new StringBuilder();
		md.append("| Codec | OpenMetrics: ms (forks) | OpenMetrics: bytes | protobuf: ms (forks) | protobuf: bytes")
			.append(" | allocated per scrape |\n");
		md.append("|---|---:|---:|---:|---:|---:|\n");
		md.append(String.format(Locale.ROOT, "| plain body | | %s | | %s | |\n",
				bytes(size(sizes, "format=openmetrics series=100000 bytes=[0-9]+ of ([0-9]+)")),
				bytes(size(sizes, "format=protobuf series=100000 bytes=[0-9]+ of ([0-9]+)"))));
		Map<String, String> codecs = new LinkedHashMap<>();
		codecs.put("gzip-1", "gzip level 1 (the starter's default)");
		codecs.put("gzip-6", "gzip level 6");
		codecs.put("zstd-1", "zstd level 1 (the starter's default)");
		codecs.put("zstd-3", "zstd level 3");
		codecs.put("zstd-jni-1", "zstd-jni, level 1, one shot");
		codecs.put("aircompressor", "aircompressor (pure Java), one shot");
		for (Map.Entry<String, String> codec : codecs.entrySet()) {
			JmhResults.Forks openMetrics = results.find("compress",
					Map.of("codec", codec.getKey(), "format", "openmetrics"));
			JmhResults.Forks protobuf = results.find("compress", Map.of("codec", codec.getKey(), "format", "protobuf"));
			double allocated = openMetrics.medianBytes();
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |\n", codec.getValue(),
					times(openMetrics), bytes(compressedSize(sizes, codec.getKey(), "openmetrics")), times(protobuf),
					bytes(compressedSize(sizes, codec.getKey(), "protobuf")),
					(allocated >= 1e6) ? String.format(Locale.ROOT, "%.2f MB", allocated / 1e6)
							: String.format(Locale.ROOT, "%.0f B", allocated)));
		}
		double[] share = new double[2];
		double[] smaller = new double[2];
		List<String> formats = List.of("openmetrics", "protobuf");
		for (int i = 0; i < 2; i++) {
			String format = formats.get(i);
			share[i] = results.find("compress", Map.of("codec", "zstd-1", "format", format)).medianTime()
					/ results.find("compress", Map.of("codec", "gzip-1", "format", format)).medianTime();
			smaller[i] = compressedSize(sizes, "zstd-1", format) / compressedSize(sizes, "gzip-1", format);
		}
		double jniOverAir = results.find("compress", Map.of("codec", "aircompressor", "format", "openmetrics"))
			.medianTime()
				/ results.find("compress", Map.of("codec", "zstd-jni-1", "format", "openmetrics")).medianTime();
		double level6 = results.find("compress", Map.of("codec", "gzip-6", "format", "openmetrics")).medianTime()
				/ results.find("compress", Map.of("codec", "gzip-1", "format", "openmetrics")).medianTime();
		md.append(String.format(Locale.ROOT,
				"\nSo a zstd scrape costs %s of gzip's CPU for OpenMetrics and %s for protobuf, at %s and %s of its "
						+ "size; zstd-jni is %.1f times faster than aircompressor, and gzip level 6 costs %.1f times "
						+ "level 1's CPU.\n",
				percent(share[0]), percent(share[1]), percent(smaller[0]), percent(smaller[1]), jniOverAir, level6));
		md.append('\n').append(provenance(results));
		return md.toString();
	}

	private static String gzipChoices(JmhResults results, String sizes) {
		Map<String, String> labels = new LinkedHashMap<>();
		labels.put("gzip-1", "level 1, 64 KiB in, 16 KiB out (the starter's encoder, its default)");
		labels.put("gzip-2", "level 2 (the starter's encoder)");
		labels.put("gzip-3", "level 3");
		labels.put("gzip-4", "level 4");
		labels.put("gzip-6", "level 6 (zlib's default)");
		labels.put("gzip-9", "level 9");
		labels.put("deflate-1-64k-16k", "level 1, 64 KiB in, 16 KiB out (the JDK's deflater alone, arrays)");
		labels.put("deflate-1-64k-4k", "level 1, 64 KiB in, 4 KiB out");
		labels.put("deflate-1-64k-64k", "level 1, 64 KiB in, 64 KiB out");
		labels.put("deflate-1-64k-256k", "level 1, 64 KiB in, 256 KiB out");
		labels.put("deflate-1-8k-16k", "level 1, 8 KiB in, 16 KiB out");
		labels.put("deflate-1-1024k-64k", "level 1, 1 MiB in, 64 KiB out");
		labels.put("deflate-1-8192k-1024k", "level 1, 8 MiB in (the body in two pieces), 1 MiB out");
		labels.put("deflate-1-64k-16k-filtered", "level 1, strategy `FILTERED`");
		labels.put("deflate-1-64k-16k-huffman", "level 1, strategy `HUFFMAN_ONLY`");
		Map<String, String> starter = Map.of("codec", "gzip-1", "format", "openmetrics");
		double starterTime = results.find("compress", starter).medianTime();
		double starterSize = compressedSize(sizes, "gzip-1", "openmetrics");
		StringBuilder md = new StringBuilder();
		md.append("| gzip of the OpenMetrics body, 100,000 series | ms, median (forks) | bytes")
			.append(" | time / the starter's | size / the starter's |\n");
		md.append("|---|---:|---:|---:|---:|\n");
		for (Map.Entry<String, String> codec : labels.entrySet()) {
			JmhResults.Forks forks = results.find("compress", Map.of("codec", codec.getKey(), "format", "openmetrics"));
			double size = compressedSize(sizes, codec.getKey(), "openmetrics");
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |\n", codec.getValue(), times(forks),
					bytes(size), percent(forks.medianTime() / starterTime), percent(size / starterSize)));
		}
		md.append('\n').append(provenance(results));
		return md.toString();
	}

	private static String recording(JmhResults jmh, RecordingLoadRuns load) throws IOException {
		StringBuilder md = new StringBuilder();
		md.append("| per observation (`MeterObservationHandlerBenchmark`, `handler`) | Micrometer's handler")
			.append(" | the starter's | the starter's / Micrometer's |\n");
		md.append("|---|---:|---:|---:|\n");
		for (String longTaskTimer : List.of("true", "false")) {
			JmhResults.Forks none = jmh.find("handler", Map.of("handler", "none", "longTaskTimer", longTaskTimer));
			JmhResults.Forks micrometer = jmh.find("handler",
					Map.of("handler", "default", "longTaskTimer", longTaskTimer));
			JmhResults.Forks leanscrape = jmh.find("handler",
					Map.of("handler", "leanscrape", "longTaskTimer", longTaskTimer));
			String what = longTaskTimer.equals("true") ? "with the long task timer" : "without it";
			double defaultBytes = micrometer.medianBytes() - none.medianBytes();
			double leanscrapeBytes = leanscrape.medianBytes() - none.medianBytes();
			double defaultTime = micrometer.medianTime() - none.medianTime();
			double leanscrapeTime = leanscrape.medianTime() - none.medianTime();
			md.append(String.format(Locale.ROOT, "| bytes, %s | %s B | %s B | %s |\n", what, bytes(defaultBytes),
					bytes(leanscrapeBytes), percent(leanscrapeBytes / defaultBytes)));
			md.append(String.format(Locale.ROOT, "| time, %s | %.0f ns | %.0f ns | %s |\n", what, defaultTime,
					leanscrapeTime, percent(leanscrapeTime / defaultTime)));
		}
		md.append('\n');
		md.append("| per request (`ServerRequestFilterBenchmark`) | ns, median (forks) | bytes | net ns | net bytes")
			.append(" | net bytes / Spring's default |\n");
		md.append("|---|---:|---:|---:|---:|---:|\n");
		JmhResults.Forks chain = jmh.find("request", Map.of("recording", "none"));
		JmhResults.Forks defaults = jmh.find("request", Map.of("recording", "default"));
		Map<String, String> labels = new LinkedHashMap<>();
		labels.put("none", "none (the chain alone)");
		labels.put("default", "default: Spring's convention, Micrometer's handler");
		labels.put("handler", "handler: Spring's convention, the starter's handler");
		labels.put("leanscrape", "**leanscrape: the starter's convention and handler (the default)**");
		labels.put("direct", "direct (`direct-server-requests=true`)");
		for (Map.Entry<String, String> label : labels.entrySet()) {
			JmhResults.Forks forks = jmh.find("request", Map.of("recording", label.getKey()));
			String times = String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", forks.medianTime(), forks.fastestFork(),
					forks.slowestFork());
			if (label.getKey().equals("none")) {
				md.append(String.format(Locale.ROOT, "| %s | %s | %s | | | |\n", label.getValue(), times,
						bytes(forks.medianBytes())));
				continue;
			}
			double netBytes = forks.medianBytes() - chain.medianBytes();
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %s | %s |\n", label.getValue(), times,
					bytes(forks.medianBytes()), forks.medianTime() - chain.medianTime(), bytes(netBytes),
					percent(netBytes / (defaults.medianBytes() - chain.medianBytes()))));
		}
		md.append('\n').append(provenance(jmh)).append('\n');
		md.append(load.table());
		return md.toString();
	}

	private static String scrapeStages(JmhResults results) {
		StringBuilder md = new StringBuilder();
		md.append("| Series | Stage | Spring Boot: B/op | leanscrape: B/op |\n|---:|---|---:|---:|\n");
		for (String count : List.of("1000", "10000", "100000")) {
			Map<String, String> params = series(count, "text");
			JmhResults.Forks collect = results.findOrNull("collect", params);
			if (collect == null) {
				continue;
			}
			md.append(String.format(Locale.ROOT,
					"| %s | collect (`PrometheusRegistry.scrape()`, both paths) | %s | %s |\n", number(count),
					bytes(collect.medianBytes()), bytes(collect.medianBytes())));
			md.append(String.format(Locale.ROOT, "| %s | write (client_java's writer) | %s | %s |\n", number(count),
					bytes(results.find("bootWrite", params).medianBytes()),
					bytes(results.find("leanscrapeWrite", params).medianBytes())));
			md.append(String.format(Locale.ROOT, "| %s | hand-off (buffer, copy, response body) | %s | %s |\n",
					number(count), bytes(results.find("bootHandOff", params).medianBytes()),
					bytes(results.find("leanscrapeHandOff", params).medianBytes())));
		}
		md.append('\n').append(provenance(results));
		return md.toString();
	}

	private static String scrapeMetrics(JmhResults results) {
		JmhResults.Forks forks = results.find("recordOneScrape", Map.of());
		return String.format(Locale.ROOT, "%s B and %.0f ns (forks: %.0f–%.0f) per scrape recorded.\n\n%s",
				bytes(forks.medianBytes()), forks.medianTime(), forks.fastestFork(), forks.slowestFork(),
				provenance(results));
	}

	private static String micrometerNext(JmhResults results) {
		StringBuilder md = new StringBuilder(timesHeader("Series"));
		for (String format : List.of("text", "openmetrics", "protobuf")) {
			Map<String, String> params = series("100000", format);
			JmhResults.Forks boot = results.findOrNull("boot", params);
			JmhResults.Forks leanscrape = results.findOrNull("leanscrape", params);
			if (boot != null && leanscrape != null) {
				md.append(timesRow("100,000", format, boot, leanscrape));
			}
		}
		md.append('\n').append(provenance(results));
		return md.toString();
	}

	private static String memory(String bounded, String retained) {
		Matcher storm = Pattern
			.compile("Bounded memory: (\\d+) series, (\\d+) rounds of (\\d+) concurrent scrapes, (\\S+)")
			.matcher(bounded);
		Matcher outcomes = Pattern.compile("outcomes \\{([^}]*)\\}").matcher(bounded);
		Matcher peak = Pattern.compile("buffer peak ([0-9]+) bytes = ([0-9.]+) bodies").matcher(bounded);
		Matcher line = Pattern.compile("text sample line: ([0-9.]+) bytes").matcher(retained);
		Matcher encoded = Pattern.compile("pre-encoded bytes [^:]*: ([0-9.]+) bytes per series").matcher(retained);
		Matcher index = Pattern.compile("everything the index holds: ([0-9.]+) bytes per series").matcher(retained);
		Matcher series = Pattern.compile("Direct path, ([0-9,]+) counter series").matcher(retained);
		for (Matcher matcher : List.of(storm, outcomes, peak, line, encoded, index, series)) {
			if (!matcher.find()) {
				throw new IllegalStateException("The memory tests' output lacks " + matcher.pattern());
			}
		}
		StringBuilder md = new StringBuilder();
		md.append(String.format(Locale.ROOT,
				"- %s rounds of %s concurrent scrapes against %,d series in an application started with `%s`: "
						+ "outcomes {%s}, no `OutOfMemoryError`, scrape buffers at most %s bodies "
						+ "(`leanscrape.buffer.max-held-bodies` bounds them; `BoundedMemoryTests`).\n",
				storm.group(2), storm.group(3), Long.parseLong(storm.group(1)), storm.group(4), outcomes.group(1),
				peak.group(2)));
		md.append(String.format(Locale.ROOT,
				"- At %s counter series with three labels (JOL, after one scrape, the index's own objects only): "
						+ "%s bytes per series of pre-encoded bytes (label bytes and family metadata) against %s bytes "
						+ "per text line; %s bytes per series for the whole index (`RetainedMemoryTests`). A removed "
						+ "meter releases its series.\n",
				series.group(1), encoded.group(1), line.group(1), index.group(1)));
		md.append('\n')
			.append(provenance("docs/load/bounded-memory.txt", RunRecord.comments(bounded)))
			.append('\n')
			.append(provenance("docs/load/retained-memory.txt", RunRecord.comments(retained)))
			.append('\n');
		return md.toString();
	}

	/**
	 * The demo's responses as README shows them: the cardinality report with its first
	 * families only, and the starter's own metrics as they are.
	 */
	private static String demoQuickStart(String raw) {
		String text = raw.replace("\r\n", "\n");
		int report = text.indexOf("$ curl -s http://127.0.0.1:8080/actuator/leanscrape\n");
		int own = text.indexOf("$ curl -s 'http://127.0.0.1:8080/actuator/prometheus");
		if (report < 0 || own < report) {
			throw new IllegalStateException("The demo's raw output lacks its two responses");
		}
		String reportLine = text.substring(report, text.indexOf('\n', report) + 1);
		JsonMapper mapper = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
		ObjectNode json = (ObjectNode) mapper.readTree(text.substring(report + reportLine.length(), own).trim());
		ArrayNode families = (ArrayNode) json.get("families");
		int count = families.size();
		while (families.size() > 3) {
			families.remove(families.size() - 1);
		}
		StringBuilder md = new StringBuilder("```shell\n");
		md.append(reportLine.replace("$ ", ""));
		md.append("```\n\n```json\n").append(mapper.writeValueAsString(json).replace("\r\n", "\n")).append('\n');
		md.append("```\n\n");
		md.append(String.format(Locale.ROOT, "(the first 3 of its %d families, largest first)\n\n", count));
		String ownSection = text.substring(own);
		int firstLine = ownSection.indexOf('\n');
		md.append("```shell\n").append(ownSection, 2, firstLine + 1).append("```\n\n");
		md.append("```\n").append(ownSection.substring(firstLine + 1).strip()).append("\n```\n\n");
		md.append(provenance("docs/load/demo-quick-start.txt", RunRecord.comments(raw))).append('\n');
		return md.toString();
	}

	/**
	 * Return the compressed size {@code CompressionBenchmark} printed for a codec and
	 * format at 100,000 series.
	 */
	private static double compressedSize(String sizes, String codec, String format) {
		return size(sizes, "codec=" + Pattern.quote(codec) + " format=" + format + " series=100000 bytes=([0-9]+)");
	}

	private static double size(String sizes, String pattern) {
		Matcher matcher = Pattern.compile(pattern).matcher(sizes);
		if (!matcher.find()) {
			throw new IllegalStateException("No size printed for " + pattern);
		}
		return Double.parseDouble(matcher.group(1));
	}

	private static String timesHeader(String first) {
		return "| " + first + " | Format | Spring Boot: ms, median (forks) | leanscrape: ms, median (forks)"
				+ " | Spring Boot: bytes | leanscrape: bytes | bytes ratio"
				+ " | time ratio: median (Boot's fastest fork) |\n|---|---|---:|---:|---:|---:|---:|---:|\n";
	}

	private static String timesRow(String first, String format, JmhResults.Forks boot, JmhResults.Forks leanscrape) {
		return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s (%s) |\n", first,
				formatLabel(format), times(boot), times(leanscrape), bytes(boot.medianBytes()),
				bytes(leanscrape.medianBytes()), percent(leanscrape.medianBytes() / boot.medianBytes()),
				percent(leanscrape.medianTime() / boot.medianTime()),
				percent(leanscrape.medianTime() / boot.fastestFork()));
	}

	static String provenance(JmhResults results) {
		return provenance("docs/jmh/" + results.file().getFileName(), results.run())
				+ String.format(Locale.ROOT, " Forks per result: %d.\n", results.forkCount());
	}

	static String provenance(String file, Map<String, String> run) {
		String versions = run.get("versions");
		return String.format(Locale.ROOT, "Raw: `%s`; %s, commit `%s`, %s, %s%s, with `%s`.", file, run.get("date"),
				run.get("commit"), run.get("jdk"), run.get("machine"), (versions != null) ? ", " + versions : "",
				run.get("command"));
	}

	private static Map<String, String> series(String count, String format) {
		return Map.of("seriesCount", count, "format", format);
	}

	private static Map<String, String> http(String count, String server, String encoding, String endpoint) {
		return Map.of("seriesCount", count, "server", server, "encoding", encoding, "endpoint", endpoint);
	}

	private static String formatLabel(String format) {
		return switch (format) {
			case "text" -> "text 0.0.4";
			case "openmetrics" -> "OpenMetrics";
			default -> format;
		};
	}

	private static String serverLabel(String server) {
		return server.equals("tomcat") ? "Tomcat" : "Netty";
	}

	private static String number(String count) {
		return String.format(Locale.ROOT, "%,d", Long.parseLong(count));
	}

	static String times(JmhResults.Forks forks) {
		return millis(forks.medianTime()) + " (" + millis(forks.fastestFork()) + "–" + millis(forks.slowestFork())
				+ ")";
	}

	static String millis(double millis) {
		if (Math.abs(millis) >= 10) {
			return String.format(Locale.ROOT, "%.1f", millis);
		}
		if (Math.abs(millis) >= 1) {
			return String.format(Locale.ROOT, "%.2f", millis);
		}
		return String.format(Locale.ROOT, "%.3f", millis);
	}

	/**
	 * A value to three significant figures, or to the unit when it has more digits.
	 */
	static String threeFigures(double value) {
		if (Math.abs(value) >= 100) {
			return String.format(Locale.ROOT, "%.0f", value);
		}
		return millis(value);
	}

	static String bytes(double bytes) {
		return String.format(Locale.ROOT, "%,d", Math.round(bytes));
	}

	static String percent(double ratio) {
		double percent = 100 * ratio;
		return String.format(Locale.ROOT, (percent < 1) ? "%.2f%%" : "%.1f%%", percent);
	}

	/**
	 * The uncompressed scrapes of 100,000 series on one server: the floor, the starter
	 * serving from its cache, and the starter rendering.
	 */
	private record UncompressedScrapes(JmhResults.Forks floor, JmhResults.Forks cached, JmhResults.Forks leanscrape) {

		static UncompressedScrapes of(JmhResults results, String server) {
			return new UncompressedScrapes(results.find("scrape", http("100000", server, "identity", "floor")),
					results.find("scrape", http("100000", server, "identity", "cached")),
					results.find("scrape", http("100000", server, "identity", "leanscrape")));
		}

		double aboveFloor() {
			return this.leanscrape.medianTime() - this.floor.medianTime();
		}

	}

}
