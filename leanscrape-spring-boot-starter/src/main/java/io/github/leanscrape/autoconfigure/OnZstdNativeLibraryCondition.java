package io.github.leanscrape.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Matches when zstd-jni's native library loads on this platform. zstd-jni ships it inside
 * its jar for the common platforms and unpacks it into a temporary directory; where that
 * fails (an unsupported platform, a temporary directory that forbids executing), zstd is
 * not offered, rather than failing the scrapes that ask for it. Reflective, so that it
 * can be evaluated without zstd-jni on the class path (after
 * {@code @ConditionalOnClass}).
 *
 * @author leanscrape
 */
final class OnZstdNativeLibraryCondition extends SpringBootCondition {

	private static final String NATIVE = "com.github.luben.zstd.util.Native";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		try {
			Class<?> loader = ClassUtils.forName(NATIVE, context.getClassLoader());
			loader.getMethod("load").invoke(null);
			return ConditionOutcome.match("zstd-jni's native library loaded");
		}
		catch (ReflectiveOperationException | LinkageError ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			return ConditionOutcome.noMatch("zstd-jni's native library did not load: " + cause);
		}
	}

}
