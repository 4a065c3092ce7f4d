package io.github.leanscrape.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tables README.md publishes agree with the raw results committed beside them: every
 * figure, recomputed from the JMH JSON files (medians and ranges of the forks' means) and
 * the benchmarks' printed sizes, is what the table prints, to the precision it prints.
 */
class PublishedFiguresTests {

	private static final Path JMH = Path.of("docs", "jmh");

	private static final Pattern TIMES = Pattern.compile("([0-9.,]+) \\(([0-9.,]+)–([0-9.,]+)\\)");

	@Test
	void everyFormatAndConfigurationTableIsItsRawResults() throws IOException {
		List<JsonNode> matrix = results("scrape-100k-matrix.json");
		List<JsonNode> created = results("scrape-100k-created.json");
		List<List<String>> rows = table("| Configuration | Format | Spring Boot: ms, median (forks) |");
		assertThat(rows).hasSize(11);
		String configuration = "";
		for (List<String> row : rows) {
			configuration = row.get(0).isEmpty() ? configuration : row.get(0);
			String format = format(row.get(1));
			List<JsonNode> results = configuration.equals("created") ? created : matrix;
			Map<String, String> params = Map.of("configuration", configuration, "format", format, "seriesCount",
					"100000");
			Forks boot = forks(find(results, "boot", params));
			Forks leanscrape = forks(find(results, "leanscrape", params));
			String where = configuration + " " + format + ": ";
			assertTimes(where + "Spring Boot's time", row.get(2), boot.times());
			assertTimes(where + "the starter's time", row.get(3), leanscrape.times());
			assertNumber(where + "Spring Boot's bytes", row.get(4), median(boot.bytes()));
			assertNumber(where + "the starter's bytes", row.get(5), median(leanscrape.bytes()));
			assertNumber(where + "bytes ratio", row.get(6), 100 * median(leanscrape.bytes()) / median(boot.bytes()));
			Matcher ratios = Pattern.compile("([0-9.]+)% \\(([0-9.]+)%\\)").matcher(row.get(7));
			assertThat(ratios.matches()).as(where + "time ratios " + row.get(7)).isTrue();
			assertNumber(where + "time ratio", ratios.group(1),
					100 * median(leanscrape.times()) / median(boot.times()));
			assertNumber(where + "time ratio against the fastest fork", ratios.group(2),
					100 * median(leanscrape.times()) / Collections.min(boot.times()));
		}
	}

	@Test
	void overHttpTableIsItsRawResults() throws IOException {
		List<JsonNode> results = new ArrayList<>(results("http-scrape.json"));
		results.addAll(results("http-scrape-zstd.json"));
		String sent = Files.readString(JMH.resolve("http-scrape-sent.txt"))
				+ Files.readString(JMH.resolve("http-scrape-zstd-sent.txt"));
		List<List<String>> rows = table("| Series | Server | Encoding | floor: ms |");
		assertThat(rows).hasSize(10);
		for (List<String> row : rows) {
			String series = row.get(0).replace(",", "");
			String server = row.get(1).toLowerCase();
			String encoding = row.get(2);
			String where = series + " " + server + " " + encoding + ": ";
			Forks floor = forks(find(results, "scrape", httpParams(series, server, encoding, "floor")));
			Forks leanscrape = forks(find(results, "scrape", httpParams(series, server, encoding, "leanscrape")));
			assertTimes(where + "the floor", row.get(3), floor.times());
			assertTimes(where + "the starter", row.get(4), leanscrape.times());
			assertNumber(where + "above the floor", row.get(6), median(leanscrape.times()) - median(floor.times()));
			assertAllocatedAndSent(where + "the starter", row.get(7), leanscrape, sent,
					"server=" + server + " endpoint=leanscrape encoding=" + encoding + " series=" + series);
			if (!row.get(5).isEmpty()) {
				Forks boot = forks(find(results, "scrape", httpParams(series, server, encoding, "boot")));
				assertTimes(where + "Spring Boot", row.get(5), boot.times());
				assertAllocatedAndSent(where + "Spring Boot", row.get(8), boot, sent,
						"server=" + server + " endpoint=boot encoding=" + encoding + " series=" + series);
			}
		}
	}

	@Test
	void whereTheTimeAboveTheFloorGoesTableIsItsRawResults() throws IOException {
		List<JsonNode> results = results("http-scrape-cached.json");
		List<List<String>> rows = table("| Server | floor: ms | cached: ms |");
		assertThat(rows).hasSize(2);
		for (List<String> row : rows) {
			String server = row.get(0).toLowerCase();
			Forks floor = forks(find(results, "scrape", httpParams("100000", server, "identity", "floor")));
			Forks cached = forks(find(results, "scrape", httpParams("100000", server, "identity", "cached")));
			Forks leanscrape = forks(find(results, "scrape", httpParams("100000", server, "identity", "leanscrape")));
			assertTimes(server + " floor", row.get(1), floor.times());
			assertTimes(server + " cached", row.get(2), cached.times());
			assertTimes(server + " leanscrape", row.get(3), leanscrape.times());
			assertNumber(server + " cached above the floor", row.get(4),
					median(cached.times()) - median(floor.times()));
			assertNumber(server + " rendering", row.get(5), median(leanscrape.times()) - median(cached.times()));
		}
	}

	@Test
	void compressionTableIsItsRawResults() throws IOException {
		List<JsonNode> results = results("compression-100k.json");
		String sizes = Files.readString(JMH.resolve("compression-100k-sizes.txt"));
		List<List<String>> rows = table("| Codec | OpenMetrics: ms (forks) |");
		assertThat(rows).hasSize(7);
		for (List<String> row : rows) {
			String codec = codec(row.get(0));
			if (codec == null) {
				assertThat(sizes).contains("format=openmetrics series=100000 bytes=", "of " + number(row.get(2)))
					.contains("format=protobuf series=100000 bytes=", "of " + number(row.get(4)));
				continue;
			}
			Forks openMetrics = forks(find(results, "compress", Map.of("codec", codec, "format", "openmetrics")));
			Forks protobuf = forks(find(results, "compress", Map.of("codec", codec, "format", "protobuf")));
			assertTimes(codec + " OpenMetrics", row.get(1), openMetrics.times());
			assertThat(sizes)
				.contains("codec=" + codec + " format=openmetrics series=100000 bytes=" + number(row.get(2)));
			assertTimes(codec + " protobuf", row.get(3), protobuf.times());
			assertThat(sizes).contains("codec=" + codec + " format=protobuf series=100000 bytes=" + number(row.get(4)));
			String allocated = row.get(5);
			double bytes = median(openMetrics.bytes());
			if (allocated.endsWith(" MB")) {
				assertNumber(codec + " allocated", allocated.substring(0, allocated.length() - 3), bytes / 1e6);
			}
			else {
				assertNumber(codec + " allocated", allocated.substring(0, allocated.length() - 2), bytes);
			}
		}
	}

	private static Map<String, String> httpParams(String series, String server, String encoding, String endpoint) {
		return Map.of("seriesCount", series, "server", server, "encoding", encoding, "endpoint", endpoint);
	}

	private static void assertAllocatedAndSent(String what, String cell, Forks forks, String sent, String trial) {
		String[] parts = cell.split(" / ");
		assertThat(parts).as(what + " " + cell).hasSize(2);
		assertNumber(what + " allocated", parts[0], median(forks.bytes()));
		// Each fork printed what it sent, which varies by a few bytes (values grow).
		List<Double> sentByForks = new ArrayList<>();
		Matcher line = Pattern.compile(Pattern.quote(trial) + " bytes=([0-9]+)").matcher(sent);
		while (line.find()) {
			sentByForks.add(Double.parseDouble(line.group(1)));
		}
		assertThat(sentByForks).as(what + " sent, by forks").hasSize(3);
		assertNumber(what + " sent", parts[1], median(sentByForks));
	}

	private static @Nullable String codec(String label) {
		if (label.startsWith("plain")) {
			return null;
		}
		if (label.startsWith("gzip level ")) {
			return "gzip-" + label.charAt("gzip level ".length());
		}
		if (label.startsWith("zstd level ")) {
			return "zstd-" + label.charAt("zstd level ".length());
		}
		return label.startsWith("zstd-jni") ? "zstd-jni-1" : "aircompressor";
	}

	private static String format(String label) {
		return switch (label) {
			case "text 0.0.4" -> "text";
			case "OpenMetrics" -> "openmetrics";
			default -> label;
		};
	}

	private static void assertTimes(String what, String cell, List<Double> forks) {
		Matcher times = TIMES.matcher(cell);
		assertThat(times.matches()).as(what + ": " + cell).isTrue();
		assertNumber(what + ", median", times.group(1), median(forks));
		assertNumber(what + ", fastest fork", times.group(2), Collections.min(forks));
		assertNumber(what + ", slowest fork", times.group(3), Collections.max(forks));
	}

	/**
	 * Assert that a printed number is the actual one to the precision it is printed with.
	 */
	private static void assertNumber(String what, String printed, double actual) {
		String digits = number(printed.replace("%", "").trim());
		int point = digits.indexOf('.');
		int decimals = (point < 0) ? 0 : digits.length() - point - 1;
		double tolerance = 0.5 * Math.pow(10, -decimals) + 1e-9;
		assertThat(Math.abs(Double.parseDouble(digits) - actual)).as(what + ": printed " + printed + ", raw " + actual)
			.isLessThanOrEqualTo(tolerance);
	}

	private static String number(String printed) {
		return printed.replace(",", "");
	}

	private static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int n = sorted.size();
		return (n % 2 == 1) ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
	}

	private static Forks forks(JsonNode result) {
		return new Forks(forkMeans(result.get("primaryMetric").get("rawData")),
				forkMeans(result.get("secondaryMetrics").get("gc.alloc.rate.norm").get("rawData")));
	}

	private static List<Double> forkMeans(JsonNode rawData) {
		List<Double> means = new ArrayList<>();
		for (JsonNode fork : rawData) {
			double sum = 0;
			for (JsonNode iteration : fork) {
				sum += iteration.asDouble();
			}
			means.add(sum / fork.size());
		}
		return means;
	}

	private static JsonNode find(List<JsonNode> results, String benchmark, Map<String, String> params) {
		for (JsonNode result : results) {
			if (!result.get("benchmark").asString().endsWith("." + benchmark)) {
				continue;
			}
			boolean matches = true;
			for (Map.Entry<String, String> param : params.entrySet()) {
				JsonNode value = result.get("params").get(param.getKey());
				matches &= value != null && value.asString().equals(param.getValue());
			}
			if (matches) {
				return result;
			}
		}
		throw new AssertionError("No raw result for " + benchmark + " " + params);
	}

	private static List<JsonNode> results(String file) throws IOException {
		List<JsonNode> results = new ArrayList<>();
		for (JsonNode result : new JsonMapper().readTree(JMH.resolve(file).toFile())) {
			results.add(result);
		}
		return results;
	}

	/**
	 * Return the rows of the README table whose header line starts with the given text.
	 */
	private static List<List<String>> table(String header) throws IOException {
		List<String> lines = Files.readAllLines(Path.of("README.md"));
		int start = -1;
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).startsWith(header)) {
				assertThat(start).as("one table headed " + header).isEqualTo(-1);
				start = i;
			}
		}
		assertThat(start).as("a table headed " + header).isNotNegative();
		List<List<String>> rows = new ArrayList<>();
		for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
			String line = lines.get(i);
			List<String> cells = new ArrayList<>();
			for (String cell : line.substring(1, line.length() - 1).split("\\|", -1)) {
				cells.add(cell.trim());
			}
			rows.add(cells);
		}
		return rows;
	}

	private record Forks(List<Double> times, List<Double> bytes) {

	}

}
