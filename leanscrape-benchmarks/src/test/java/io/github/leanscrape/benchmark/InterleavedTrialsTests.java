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
