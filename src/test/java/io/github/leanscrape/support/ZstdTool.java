package io.github.leanscrape.support;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Decodes zstd bodies with the {@code zstd} command-line tool, the reference
 * implementation's own decoder, not the library that encoded them. The tests that use it
 * do not skip when it is missing: they fail and say what to install.
 */
public final class ZstdTool {

	private ZstdTool() {
	}

	/**
	 * Decode a zstd stream.
	 * @param compressed the stream
	 * @return the decoded bytes
	 */
	public static byte[] decode(byte[] compressed) {
		try {
			Process process = new ProcessBuilder(executable().toString(), "-d", "-c", "-q").start();
			CompletableFuture<Void> input = CompletableFuture.runAsync(() -> {
				try (OutputStream stdin = process.getOutputStream()) {
					stdin.write(compressed);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			byte[] decoded;
			try (InputStream stdout = process.getInputStream()) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				stdout.transferTo(out);
				decoded = out.toByteArray();
			}
			input.join();
			assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("zstd finished").isTrue();
			assertThat(process.exitValue()).as("zstd's exit status").isZero();
			return decoded;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Path executable() {
		String path = System.getenv("PATH");
		if (path != null) {
			for (String directory : path.split(File.pathSeparator)) {
				Path candidate = Path.of(directory, "zstd");
				if (!directory.isEmpty() && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		return fail("'zstd' is not on the PATH. These tests decode zstd bodies with the reference tool; install it "
				+ "(Debian and Ubuntu: apt-get install zstd). .ci/run installs it.");
	}

}
