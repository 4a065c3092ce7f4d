package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for how {@link InterleavedTrials} merges the results of its trials.
 *
 * @author leanscrape
 */
class InterleavedTrialsTests {

	@TempDir
	Path directory;

	@Test
	void forkIOfEveryResultIsTrialI() throws IOException {
		Path first = trial("first", result("true", 1.0, 2.0) + "," + result("false", 4.0, 4.0));
		Path second = trial("second", result("true", 3.0, 3.0) + "," + result("false", 6.0, 6.0));
		JsonNode merged = new JsonMapper().readTree(InterleavedTrials.merge(List.of(first, second)));
		assertThat(merged.size()).isEqualTo(2);
		JsonNode reused = merged.get(0);
		assertThat(reused.get("params").get("reuse").asString()).isEqualTo("true");
		assertThat(reused.get("forks").asInt()).isEqualTo(2);
		assertThat(reused.get("primaryMetric").get("rawData").toString()).isEqualTo("[[1.0,2.0],[3.0,3.0]]");
		assertThat(reused.get("primaryMetric").get("score").asDouble()).isEqualTo(2.25);
		assertThat(reused.get("primaryMetric").has("scoreError")).isFalse();
		assertThat(reused.get("secondaryMetrics").get("gc.alloc.rate.norm").get("rawData").toString())
			.isEqualTo("[[10.0,20.0],[30.0,30.0]]");
		assertThat(merged.get(1).get("primaryMetric").get("rawData").toString()).isEqualTo("[[4.0,4.0],[6.0,6.0]]");
	}

	@Test
	void aResultMissingFromATrialIsRefused() throws IOException {
		Path first = trial("first", result("true", 1.0, 2.0) + "," + result("false", 4.0, 4.0));
		// The reuse side failed in the second trial: its forks would pair with others.
		Path second = trial("second", result("false", 6.0, 6.0));
		assertThatIllegalStateException().isThrownBy(() -> InterleavedTrials.merge(List.of(first, second)))
			.withMessageContaining("{\"reuse\":\"true\"}")
			.withMessageContaining("1 forks in 2 trials");
	}

	@Test
	void aTrialWithoutACollectionHasAnEmptyForkOfTheGcTime() throws IOException {
		// JMH's GC profiler leaves gc.time out of a fork in which nothing was collected.
		Path first = trial("first", result("true", 1.0, 2.0));
		Path second = trial("second", withGcTime(result("true", 3.0, 3.0), 5.0));
		Path third = trial("third", result("true", 4.0, 4.0));
		JsonNode merged = new JsonMapper().readTree(InterleavedTrials.merge(List.of(first, second, third)));
		JsonNode secondaries = merged.get(0).get("secondaryMetrics");
		assertThat(secondaries.get("gc.time").get("rawData").toString()).isEqualTo("[[],[5.0],[]]");
		assertThat(secondaries.get("gc.alloc.rate.norm").get("rawData").size()).isEqualTo(3);
	}

	@Test
	void anotherSecondaryMetricMissingFromATrialIsRefused() throws IOException {
		Path first = trial("first", result("true", 1.0, 2.0));
		Path second = trial("second", result("true", 3.0, 3.0).replace("gc.alloc.rate.norm", "other"));
		assertThatIllegalStateException().isThrownBy(() -> InterleavedTrials.merge(List.of(first, second)))
			.withMessageContaining("gc.alloc.rate.norm has 1 forks in 2 trials");
	}

	private static String withGcTime(String result, double time) {
		return result.replace("\"secondaryMetrics\":{",
				"\"secondaryMetrics\":{\"gc.time\":{\"score\":0,\"rawData\":[[" + time + "]]},");
	}

	private Path trial(String name, String results) throws IOException {
		Path file = this.directory.resolve(name + ".json");
		Files.writeString(file, "[" + results + "]", StandardCharsets.UTF_8);
		return file;
	}

	private static String result(String reuse, double first, double second) {
		return "{\"benchmark\":\"a.B.scrape\",\"mode\":\"avgt\",\"forks\":1,\"params\":{\"reuse\":\"" + reuse + "\"},"
				+ "\"primaryMetric\":{\"score\":0,\"scoreError\":1,\"rawData\":[[" + first + "," + second + "]]},"
				+ "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":0,\"rawData\":[[" + (10 * first) + ","
				+ (10 * second) + "]]}}}";
	}

}
