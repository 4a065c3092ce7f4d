package io.github.leanscrape.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.leanscrape.support.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tables README.md and docs/ publish are what their committed raw results give: each
 * block of figures in the documents is exactly what {@link PublishedFigures} makes from
 * the raw files ({@code ./mvnw -q test-compile exec:java@figures} rewrites them), and
 * every raw result records the run that made it.
 */
class PublishedFiguresTests {

	@Test
	void everyPublishedTableIsWhatItsRawResultsGive() throws IOException {
		Map<String, String> blocks = PublishedFigures.inWorkingDirectory().blocks();
		Set<String> published = new HashSet<>();
		for (Path document : PublishedFigures.DOCUMENTS) {
			String text = Files.readString(document, StandardCharsets.UTF_8);
			published.addAll(PublishedFigures.names(text));
			assertThat(text).as(document + " (./mvnw -q test-compile exec:java@figures rewrites it)")
				.isEqualTo(PublishedFigures.rewrite(text, blocks));
		}
		assertThat(published).as("blocks of figures published").containsAll(blocks.keySet());
	}

	@Test
	void everyJmhResultRecordsItsRun() throws IOException {
		Path folder = PublishedFigures.ROOT.resolve("docs/jmh");
		Set<String> results = new HashSet<>();
		try (var files = Files.list(folder)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".json")).toList()) {
				Map<String, String> run = JmhResults.readRun(file);
				// JMH's arguments, given to JMH or to its runs in trials
				// (InterleavedTrials).
				assertThat(run.get("command")).as(file + "'s command")
					.containsPattern("-D(jmh|interleaved-trials)\\.args=");
				results.add(file.getFileName().toString());
			}
		}
		assertThat(RunRecord.read(folder.resolve(RunRecord.INDEX)).keySet()).as("the results runs.txt records")
			.isEqualTo(results);
	}

	@Test
	void runIndexKeepsEachRecordUnderItsFile(@TempDir Path folder) throws IOException {
		Path first = folder.resolve("first.json");
		Path second = folder.resolve("second.json");
		RunRecord.write(first, Map.of("command", "one"));
		RunRecord.write(second, Map.of("command", "two"));
		RunRecord.write(first, Map.of("command", "again"));
		assertThat(RunRecord.read(folder.resolve(RunRecord.INDEX))).containsExactly(
				Map.entry("first.json", Map.of("command", "again")),
				Map.entry("second.json", Map.of("command", "two")));
	}

	@Test
	void runRecordNamesWhatItRanWith() {
		Map<String, String> run = RunRecord.describe("./mvnw verify");
		assertThat(run).containsKeys("date", "commit", "jdk", "machine", "versions", "command");
		assertThat(run.get("versions")).startsWith("Spring Boot ")
			.contains("Micrometer ", "client_java ")
			.doesNotContain("null");
	}

	@Test
	void everyRawFileTheDocumentsNameIsCommitted() throws IOException {
		Pattern raw = Pattern.compile("`(docs/(?:jmh|load)/[^`]+)`");
		for (Path document : PublishedFigures.DOCUMENTS) {
			Matcher matcher = raw.matcher(Files.readString(document, StandardCharsets.UTF_8));
			while (matcher.find()) {
				assertThat(PublishedFigures.ROOT.resolve(matcher.group(1))).as(document + " names " + matcher.group(1))
					.exists();
			}
		}
	}

	@Test
	void everyCommittedRawResultHoldsUpAPublishedFigure() throws IOException {
		Set<String> named = new HashSet<>();
		Pattern raw = Pattern.compile("`(docs/(?:jmh|load)/[^`]+)`");
		for (Path document : PublishedFigures.DOCUMENTS) {
			Matcher matcher = raw.matcher(Files.readString(document, StandardCharsets.UTF_8));
			while (matcher.find()) {
				named.add(matcher.group(1));
			}
		}
		if (named.stream().anyMatch((file) -> file.startsWith("docs/jmh/") && file.endsWith(".json"))) {
			// The records of the JMH results' runs.
			named.add("docs/jmh/" + RunRecord.INDEX);
		}
		for (String folder : List.of("docs/jmh", "docs/load")) {
			try (var files = Files.list(PublishedFigures.ROOT.resolve(folder))) {
				for (Path file : files.toList()) {
					assertThat(named).as("a table that rests on " + file).contains(folder + "/" + file.getFileName());
				}
			}
		}
	}

	@Test
	void rawResultsAreAtMostThirtyFiles() throws IOException {
		List<Path> raw = new ArrayList<>();
		for (String folder : List.of("docs/jmh", "docs/load")) {
			try (var files = Files.list(PublishedFigures.ROOT.resolve(folder))) {
				raw.addAll(files.toList());
			}
		}
		assertThat(raw).as("raw files under docs/jmh and docs/load").hasSizeLessThanOrEqualTo(30);
	}

	@Test
	void readmeIsReadInFiveMinutes() throws IOException {
		List<String> lines = Files.readAllLines(PublishedFigures.ROOT.resolve("README.md"), StandardCharsets.UTF_8);
		assertThat(lines).as("README's lines").hasSizeLessThanOrEqualTo(300);
		assertThat(Files.readAllLines(PublishedFigures.ROOT.resolve("docs/http-scrape.md"), StandardCharsets.UTF_8))
			.as("docs/http-scrape.md's lines")
			.hasSizeLessThanOrEqualTo(120);
		assertThat(Files.readAllLines(PublishedFigures.ROOT.resolve("docs/recording.md"), StandardCharsets.UTF_8))
			.as("docs/recording.md's lines")
			.hasSizeLessThanOrEqualTo(200);
		for (Path document : List.of(PublishedFigures.ROOT.resolve("README.md"),
				PublishedFigures.ROOT.resolve("docs/design.md"), PublishedFigures.ROOT.resolve("docs/benchmarks.md"),
				PublishedFigures.ROOT.resolve("docs/http-scrape.md"))) {
			boolean code = false;
			for (String line : Files.readAllLines(document, StandardCharsets.UTF_8)) {
				code ^= line.startsWith("```");
				boolean prose = !code && !line.startsWith("|") && !line.startsWith("```");
				assertThat(prose && line.length() > 120).as(document + ": a prose line over 120 characters: " + line)
					.isFalse();
			}
		}
	}

	@Test
	void publishedFiguresAreOnlyInTheirBlocks() throws IOException {
		// Outside the blocks, README and the account of the HTTP scrape state no measured
		// time: those all come from raw results.
		for (Path document : List.of(PublishedFigures.ROOT.resolve("README.md"),
				PublishedFigures.ROOT.resolve("docs/http-scrape.md"))) {
			String text = Files.readString(document, StandardCharsets.UTF_8);
			String outside = Pattern.compile("<!-- figures:([a-z0-9-]+) -->.*?<!-- /figures:\\1 -->", Pattern.DOTALL)
				.matcher(text)
				.replaceAll("");
			List<String> times = Pattern.compile("\\b[0-9]+(?:\\.[0-9]+)? ms\\b")
				.matcher(outside)
				.results()
				.map(MatchResult::group)
				.toList();
			assertThat(times).as("times in " + document + " outside the blocks of figures").isEmpty();
		}
	}

}
