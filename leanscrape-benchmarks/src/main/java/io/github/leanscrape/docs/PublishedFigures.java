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

import org.jspecify.annotations.Nullable;

/**
 * Every table README.md and docs/ publish, made from the raw results committed in
 * {@code docs/jmh} and {@code docs/load}. A document holds each table between
 * {@code <!-- figures:name -->} and {@code <!-- /figures:name -->}; this class writes
 * what belongs there, {@code PublishedFiguresTests} fails when a document holds anything
 * else, and {@code ./mvnw -q test-compile exec:java@figures} rewrites the documents.
 * <p>
 * Under each table one line names its raw files; the record of each run (date, commit,
 * JDK, machine, command) is the JMH result's block in {@code docs/jmh/runs.txt}, or the
 * comment lines at the top of a load result.
 *
 * @author leanscrape
 */
public final class PublishedFigures {

	/** The documents that publish figures. */
	/**
	 * The project's root: the working directory, or the one above it when run in the
	 * benchmarks' module.
	 */
	static final Path ROOT = Files.exists(Path.of("README.md")) ? Path.of("") : Path.of("..");

	static final List<Path> DOCUMENTS = List.of(ROOT.resolve("README.md"), ROOT.resolve("docs/benchmarks.md"),
			ROOT.resolve("docs/http-scrape.md"), ROOT.resolve("docs/tail-latency.md"),
			ROOT.resolve("docs/bounded-memory.md"), ROOT.resolve("docs/recording.md"));

	/** How many interleaved rounds of the HTTP scrape against the floor were run. */

	/** The target of the uncompressed scrape: the floor plus this many JMH renderings. */
	private static final double TARGET_IN_RENDERINGS = 1.3;

	private static final List<String> FORMATS = List.of("text", "openmetrics", "protobuf");

	private static final Pattern BLOCK = Pattern
		.compile("(<!-- figures:([a-z0-9-]+) -->\n)(.*?)(<!-- /figures:\\2 -->)", Pattern.DOTALL);

	private final Path root;

	private PublishedFigures(Path root) {
		this.root = root;
	}

	/**
	 * Rewrite the published tables from the raw results.
	 * @param args none
	 * @throws IOException if a raw result cannot be read or a document written
	 */
	public static void main(String[] args) throws IOException {
		Map<String, String> blocks = inWorkingDirectory().blocks();
		for (Path document : DOCUMENTS) {
			String text = Files.readString(document, StandardCharsets.UTF_8).replace("\r\n", "\n");
			String rewritten = rewrite(text, blocks);
			if (!rewritten.equals(text)) {
				Files.writeString(document, rewritten, StandardCharsets.UTF_8);
				System.out.println("Rewrote " + document);
			}
		}
	}

	static PublishedFigures inWorkingDirectory() {
		return new PublishedFigures(ROOT);
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
		JmhResults bySeries = jmh("scrape-by-series.json");
		JmhResults http = jmh("http-scrape.json");
		String sent = Files.readString(this.root.resolve("docs/jmh/http-scrape-sent.txt"));
		Map<String, String> blocks = new LinkedHashMap<>();
		JmhResults changingHeadline = jmh("changing-headline.json");
		blocks.put("headline", headline(changingHeadline, http, sent, bySeries));
		blocks.put("scraper-mixes", ReuseTables.scraperMixes(jmh("scraper-mixes-100k.json")));
		blocks.put("scraper-mixes-http", ReuseTables.scraperMixesOverHttp(jmh("scraper-mixes-http-100k.json")));
		blocks.put("worst-cases", ReuseTables.worstCases(jmh("worst-cases-100k.json")));
		blocks.put("interleaved-mixes",
				ReuseTables.interleavedMixes("interleaved-mixes.tsv", load("interleaved-mixes.tsv")));
		blocks.put("interleaved-mixes-blocks",
				ReuseTables.interleavedMixes("interleaved-mixes-blocks.tsv", load("interleaved-mixes-blocks.tsv")));
		blocks.put("change-share", ReuseTables.changeShare("change-share.tsv", load("change-share.tsv")));
		blocks.put("scrape-by-series", scrapeBySeries(bySeries));
		blocks.put("scrape-configurations", scrapeConfigurations(jmh("scrape-100k-configurations.json")));
		blocks.put("micrometer-next", micrometerNext(jmh("scrape-micrometer-1.18.0-M1.json")));
		blocks.put("scrape-stages", scrapeStages(jmh("scrape-stages.json")));
		blocks.put("http-scrape", httpScrape(http, sent));
		blocks.put("http-rounds", httpRounds(jmh("http-scrape-rounds.json")));
		blocks.put("compression", compression(jmh("compression-100k.json"),
				Files.readString(this.root.resolve("docs/jmh/compression-100k-sizes.txt"))));
		blocks.put("scrape-metrics", scrapeMetrics(jmh("recording.json")));
		blocks.put("recording", recording(jmh("recording.json")));
		blocks.put("memory", memory(load("bounded-memory.txt"), load("retained-memory.txt")));
		blocks.put("tail-latency", tailLatency("tail-latency.tsv"));
		blocks.put("tail-latency-10k", tailLatency("tail-latency-10k.tsv"));
		blocks.put("tail-latency-changing", tailLatency("tail-latency-changing.tsv"));
		blocks.put("tail-latency-render-priority",
				"The starter as it is:\n\n" + tailLatency("tail-latency-render-priority-baseline.tsv")
						+ "\nRendering and compressing at the lowest priority (nice 19):\n\n"
						+ tailLatency("tail-latency-render-priority.tsv"));
		return blocks;
	}

	private JmhResults jmh(String name) throws IOException {
		return JmhResults.read(this.root.resolve("docs/jmh").resolve(name));
	}

	private String load(String name) throws IOException {
		return Files.readString(this.root.resolve("docs/load").resolve(name), StandardCharsets.UTF_8);
	}

	private String tailLatency(String name) throws IOException {
		TailLatencyTrials trials = TailLatencyTrials.read(this.root.resolve("docs/load").resolve(name));
		return trials.table() + "\n" + FigureText.raw("docs/load/" + name) + "\n";
	}

	/**
	 * What README leads with: Spring Boot's endpoint and the starter's at 10,000 and
	 * 100,000 series, OpenMetrics with gzip asked for (as Prometheus asks) when a tenth
	 * of the counters changed since the last scrape, in whole blocks or in every block,
	 * and with three scrapers asking gzip, zstd and nothing in turn (each scrape timed);
	 * OpenMetrics uncompressed over HTTP (every series formatted); protobuf as JMH
	 * renders it.
	 * @param changing the results of {@code ChangingScrapeBenchmark}
	 * @param http the results of the scrape over HTTP
	 * @param sent the bytes sent over HTTP ({@code http-scrape-sent.txt})
	 * @param bySeries the results of {@code ScrapeBenchmark} by series count
	 * @return the block: the table in Markdown and the line naming its raw files
	 */
	private static String headline(JmhResults changing, JmhResults http, String sent, JmhResults bySeries) {
		StringBuilder md = new StringBuilder();
		md.append(
				"| Scrape | Series | Spring Boot: ms, allocated | leanscrape: ms, allocated | leanscrape / Spring Boot:")
			.append(" time, bytes | bytes sent: Spring Boot, leanscrape |\n|---|---:|---:|---:|---:|---:|\n");
		Map<String, String> scrapes = new LinkedHashMap<>();
		scrapes.put("gzip/10-blocks", "OpenMetrics, gzip, 10% changed in whole blocks (JMH, no HTTP)");
		scrapes.put("gzip/10-scattered", "OpenMetrics, gzip, 10% changed in every block (JMH, no HTTP)");
		scrapes.put("gzip-zstd-identity/10-blocks",
				"OpenMetrics, three scrapers in turn (gzip, zstd, none), 10% in blocks (JMH)");
		for (Map.Entry<String, String> scrape : scrapes.entrySet()) {
			String[] codingAndChange = scrape.getKey().split("/");
			for (String count : List.of("10000", "100000")) {
				Map<String, String> params = Map.of("seriesCount", count, "coding", codingAndChange[0], "change",
						codingAndChange[1]);
				md.append(headlineRow(scrape.getValue(), count, changing.find("boot", params),
						changing.find("scrape", params)))
					.append(String.format(Locale.ROOT, " %s, %s |\n",
							FigureText.size(FigureText.sentPerScrape(changing, "boot", params)),
							FigureText.size(FigureText.sentPerScrape(changing, "scrape", params))));
			}
		}
		for (String count : List.of("10000", "100000")) {
			JmhResults.Forks boot = http.find("scrape", FigureText.http(count, "tomcat", "identity", "boot"));
			JmhResults.Forks leanscrape = http.find("scrape",
					FigureText.http(count, "tomcat", "identity", "leanscrape"));
			md.append(headlineRow("OpenMetrics, uncompressed, every series formatted (Tomcat, HTTP)", count, boot,
					leanscrape))
				.append(String.format(Locale.ROOT, " %s, %s |\n",
						FigureText.size(FigureText.sent(sent, "tomcat", "boot", "identity", count)),
						FigureText.size(FigureText.sent(sent, "tomcat", "leanscrape", "identity", count))));
		}
		for (String count : List.of("10000", "100000")) {
			md.append(headlineRow("protobuf, every series formatted (JMH, no HTTP)", count,
					bySeries.find("boot", FigureText.series(count, "protobuf")),
					bySeries.find("leanscrape", FigureText.series(count, "protobuf"))))
				.append(" |\n");
		}
		// One raw file to a line: README's lines stay short.
		return md.append('\n')
			.append(FigureText.raw(changing))
			.append('\n')
			.append(FigureText.raw(http))
			.append('\n')
			.append(FigureText.raw(bySeries))
			.append('\n')
			.toString();
	}

	private static String headlineRow(String scrape, String count, JmhResults.Forks boot, JmhResults.Forks leanscrape) {
		return String.format(Locale.ROOT, "| %s | %s | %s, %s | %s, %s | %s, %s |", scrape, FigureText.number(count),
				FigureText.millis(boot.medianTime()), FigureText.size(boot.medianBytes()),
				FigureText.millis(leanscrape.medianTime()), FigureText.size(leanscrape.medianBytes()),
				FigureText.percent(leanscrape.medianTime() / boot.medianTime()),
				FigureText.percent(leanscrape.medianBytes() / boot.medianBytes()));
	}

	private static String scrapeBySeries(JmhResults results) {
		StringBuilder md = new StringBuilder(FigureText.timesHeader("Series"));
		for (String count : List.of("1000", "10000", "100000")) {
			for (String format : FORMATS) {
				md.append(FigureText.timesRow(FigureText.number(count), format,
						results.find("boot", FigureText.series(count, format)),
						results.find("leanscrape", FigureText.series(count, format))));
			}
		}
		for (String format : List.of("text", "openmetrics")) {
			JmhResults.Forks leanscrape = results.find("leanscrape", FigureText.series("1000000", format));
			md.append(String.format(Locale.ROOT, "| 1,000,000 | %s (`-Xmx1g`) | not run | %s | | %s | | |\n",
					FigureText.formatLabel(format), FigureText.times(leanscrape),
					FigureText.bytes(leanscrape.medianBytes())));
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	private static String scrapeConfigurations(JmhResults configurations) {
		StringBuilder md = new StringBuilder(FigureText.timesHeader("Configuration"));
		for (String configuration : List.of("plain", "tracing", "foreign", "created")) {
			boolean isCreated = configuration.equals("created");
			String first = configuration;
			for (String format : isCreated ? List.of("text", "openmetrics") : FORMATS) {
				Map<String, String> params = Map.of("configuration", configuration, "format", format, "seriesCount",
						"100000");
				JmhResults results = configurations;
				md.append(FigureText.timesRow(first, format, results.find("boot", params),
						results.find("leanscrape", params)));
				first = "";
			}
		}
		return md.append('\n').append(FigureText.raw(configurations)).append('\n').toString();
	}

	private static String micrometerNext(JmhResults results) {
		StringBuilder md = new StringBuilder(FigureText.timesHeader("Series"));
		for (String format : FORMATS) {
			Map<String, String> params = FigureText.series("100000", format);
			md.append(FigureText.timesRow("100,000", format, results.find("boot", params),
					results.find("leanscrape", params)));
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	private static String scrapeStages(JmhResults results) {
		StringBuilder md = new StringBuilder();
		md.append("| Series | Stage | Spring Boot: B/op | leanscrape: B/op |\n|---:|---|---:|---:|\n");
		for (String count : List.of("1000", "10000")) {
			Map<String, String> params = FigureText.series(count, "text");
			double collect = results.find("collect", params).medianBytes();
			md.append(String.format(Locale.ROOT, "| %s | collect (`PrometheusRegistry.scrape()`) | %s | not done |\n",
					FigureText.number(count), FigureText.bytes(collect)));
			md.append(String.format(Locale.ROOT, "| %s | write | %s | %s |\n", FigureText.number(count),
					FigureText.bytes(results.find("bootWrite", params).medianBytes()),
					FigureText.bytes(results.find("leanscrapeWrite", params).medianBytes())));
			md.append(String.format(Locale.ROOT, "| %s | hand-off (buffer, copy, response body) | %s | %s |\n",
					FigureText.number(count), FigureText.bytes(results.find("bootHandOff", params).medianBytes()),
					FigureText.bytes(results.find("leanscrapeHandOff", params).medianBytes())));
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	private static String httpScrape(JmhResults results, String sent) {
		StringBuilder md = new StringBuilder();
		md.append("| Series | Server | Encoding | floor: ms | leanscrape: ms | Spring Boot: ms")
			.append(" | leanscrape: allocated, sent | Spring Boot: allocated, sent |\n");
		md.append("|---:|---|---|---:|---:|---:|---:|---:|\n");
		for (String count : List.of("10000", "100000")) {
			for (String server : List.of("tomcat", "netty")) {
				for (String encoding : List.of("identity", "gzip")) {
					JmhResults.Forks floor = results.find("scrape", FigureText.http(count, server, encoding, "floor"));
					JmhResults.Forks leanscrape = results.find("scrape",
							FigureText.http(count, server, encoding, "leanscrape"));
					JmhResults.Forks boot = results.find("scrape", FigureText.http(count, server, encoding, "boot"));
					md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s, %s | %s, %s |\n",
							FigureText.number(count), server.equals("tomcat") ? "Tomcat" : "Netty", encoding,
							FigureText.times(floor), FigureText.times(leanscrape), FigureText.times(boot),
							FigureText.size(leanscrape.medianBytes()),
							FigureText.size(FigureText.sent(sent, server, "leanscrape", encoding, count)),
							FigureText.size(boot.medianBytes()),
							FigureText.size(FigureText.sent(sent, server, "boot", encoding, count))));
				}
			}
		}
		return md.append('\n')
			.append(FigureText.raw(results))
			.append(' ')
			.append(FigureText.raw("docs/jmh/http-scrape-sent.txt"))
			.append('\n')
			.toString();
	}

	/**
	 * The uncompressed scrape of 100,000 series over HTTP, above the floor (a fixed body
	 * served by the same server), in renderings as JMH times them in the same round.
	 * @param rounds the results of the rounds, one fork per round
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	private static String httpRounds(JmhResults rounds) {
		Map<String, String> rendering = Map.of("configuration", "plain", "format", "openmetrics", "seriesCount",
				"100000");
		// One fork a round: each round's scrape is compared with its own rendering.
		List<Double> renderings = rounds.find("leanscrape", rendering).times();
		StringBuilder md = new StringBuilder();
		md.append("| Server | floor: ms | leanscrape: ms | above the floor, in JMH renderings: median (least–most)")
			.append(" | rounds within the floor + ")
			.append(TARGET_IN_RENDERINGS)
			.append(" renderings |\n|---|---:|---:|---:|---:|\n");
		for (String server : List.of("tomcat", "netty")) {
			List<Double> floors = rounds.find("scrape", FigureText.http("100000", server, "identity", "floor")).times();
			List<Double> scrapes = rounds.find("scrape", FigureText.http("100000", server, "identity", "leanscrape"))
				.times();
			List<Double> ratios = new ArrayList<>();
			int within = 0;
			for (int round = 0; round < renderings.size(); round++) {
				double ratio = (scrapes.get(round) - floors.get(round)) / renderings.get(round);
				ratios.add(ratio);
				within += (ratio <= TARGET_IN_RENDERINGS) ? 1 : 0;
			}
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f (%.2f–%.2f) | %d of %d |\n",
					server.equals("tomcat") ? "Tomcat" : "Netty", FigureText.millis(JmhResults.median(floors)),
					FigureText.millis(JmhResults.median(scrapes)), JmhResults.median(ratios), Collections.min(ratios),
					Collections.max(ratios), within, renderings.size()));
		}
		return md.append("\nRaw: `docs/jmh/http-scrape-rounds.json`, one fork a round.\n").toString();
	}

	private static String compression(JmhResults results, String sizes) {
		StringBuilder md = new StringBuilder();
		md.append("| Codec | OpenMetrics: ms (forks) | OpenMetrics: bytes | protobuf: ms (forks) | protobuf: bytes")
			.append(" | allocated per scrape |\n|---|---:|---:|---:|---:|---:|\n");
		md.append(String.format(Locale.ROOT, "| plain body | | %s | | %s | |\n",
				FigureText.bytes(FigureText.sizeIn(sizes, "format=openmetrics series=100000 bytes=[0-9]+ of ([0-9]+)")),
				FigureText.bytes(FigureText.sizeIn(sizes, "format=protobuf series=100000 bytes=[0-9]+ of ([0-9]+)"))));
		Map<String, String> codecs = new LinkedHashMap<>();
		codecs.put("gzip-1", "gzip level 1 (the starter's default)");
		codecs.put("gzip-6", "gzip level 6");
		codecs.put("zstd-1", "zstd level 1 (the starter's default)");
		codecs.put("zstd-3", "zstd level 3");
		for (Map.Entry<String, String> codec : codecs.entrySet()) {
			JmhResults.Forks openMetrics = results.find("compress",
					Map.of("codec", codec.getKey(), "format", "openmetrics"));
			JmhResults.Forks protobuf = results.find("compress", Map.of("codec", codec.getKey(), "format", "protobuf"));
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |\n", codec.getValue(),
					FigureText.times(openMetrics),
					FigureText.bytes(FigureText.compressedSize(sizes, codec.getKey(), "openmetrics")),
					FigureText.times(protobuf),
					FigureText.bytes(FigureText.compressedSize(sizes, codec.getKey(), "protobuf")),
					FigureText.size(openMetrics.medianBytes())));
		}
		return md.append('\n')
			.append(FigureText.raw(results))
			.append(' ')
			.append(FigureText.raw("docs/jmh/compression-100k-sizes.txt"))
			.append('\n')
			.toString();
	}

	private static String scrapeMetrics(JmhResults results) {
		JmhResults.Forks forks = results.find("recordOneScrape", Map.of());
		return String.format(Locale.ROOT, "%s B and %.0f ns (forks: %.0f–%.0f) per scrape recorded.\n%s\n",
				FigureText.bytes(forks.medianBytes()), forks.medianTime(), forks.fastestFork(), forks.slowestFork(),
				FigureText.raw(results));
	}

	/**
	 * What recording one request costs on either stack: Spring Boot's defaults and the
	 * starter's, net of the request alone; and beside a Brave tracer, the metrics side,
	 * net of the tracer alone.
	 * @param results the results of the recording benchmarks
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	private static String recording(JmhResults results) {
		StringBuilder md = new StringBuilder();
		md.append("| Stack | Recording | ns per request, median (forks) | bytes | net ns | net bytes |")
			.append(" starter / Spring Boot: time, bytes |\n|---|---|---:|---:|---:|---:|---:|\n");
		Map<String, String> stacks = new LinkedHashMap<>();
		stacks.put("Spring MVC", "ServerRequestFilterBenchmark.request");
		stacks.put("Spring WebFlux", "ReactiveServerRequestBenchmark.request");
		for (Map.Entry<String, String> stack : stacks.entrySet()) {
			String benchmark = stack.getValue();
			for (boolean traced : List.of(false, true)) {
				JmhResults.Forks alone = results.find(benchmark, Map.of("recording", traced ? "traced" : "none"));
				JmhResults.Forks boot = results.find(benchmark,
						Map.of("recording", traced ? "traced-default" : "default"));
				JmhResults.Forks starter = results.find(benchmark,
						Map.of("recording", traced ? "traced-leanscrape" : "leanscrape"));
				String prefix = traced ? "with a Brave tracer: " : "";
				md.append(requestRow(stack.getKey(), traced ? "a Brave tracer alone" : "none (the request alone)",
						alone, null, null));
				md.append(requestRow(stack.getKey(), prefix + "Spring Boot's defaults", boot, alone, null));
				md.append(requestRow(stack.getKey(), "**" + prefix + "the starter's defaults**", starter, alone, boot));
			}
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	private static String requestRow(String stack, String recording, JmhResults.Forks forks,
			JmhResults.@Nullable Forks alone, JmhResults.@Nullable Forks boot) {
		String times = String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", forks.medianTime(), forks.fastestFork(),
				forks.slowestFork());
		if (alone == null) {
			return String.format(Locale.ROOT, "| %s | %s | %s | %s | | | |\n", stack, recording, times,
					FigureText.bytes(forks.medianBytes()));
		}
		double netTime = forks.medianTime() - alone.medianTime();
		double netBytes = forks.medianBytes() - alone.medianBytes();
		String share = "";
		if (boot != null) {
			share = FigureText.percent(netTime / (boot.medianTime() - alone.medianTime())) + ", "
					+ FigureText.percent(netBytes / (boot.medianBytes() - alone.medianBytes()));
		}
		return String.format(Locale.ROOT, "| %s | %s | %s | %s | %.0f | %s | %s |\n", stack, recording, times,
				FigureText.bytes(forks.medianBytes()), netTime, FigureText.bytes(netBytes), share);
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
		return String.format(Locale.ROOT,
				"- %s rounds of %s concurrent scrapes against %,d series in an application started with `%s`: "
						+ "outcomes {%s}, no `OutOfMemoryError`, scrape buffers at most %s bodies "
						+ "(`BoundedMemoryTests`).\n"
						+ "- At %s counter series with three labels (JOL, after one scrape): %s bytes per series of "
						+ "pre-encoded bytes against %s bytes per text line; %s bytes per series for the whole index "
						+ "(`RetainedMemoryTests`).\n\nRaw: `docs/load/bounded-memory.txt`, "
						+ "`docs/load/retained-memory.txt`.\n",
				storm.group(2), storm.group(3), Long.parseLong(storm.group(1)), storm.group(4), outcomes.group(1),
				peak.group(2), series.group(1), encoded.group(1), line.group(1), index.group(1));
	}

}
