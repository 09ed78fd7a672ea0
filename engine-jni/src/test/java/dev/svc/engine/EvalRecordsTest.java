package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link EvalRecords}: what a record as the engine wrote it decided, without binding it. */
class EvalRecordsTest {

  private static EvalRecords.Verdict verdict(String record) {
    return EvalRecords.verdict(record.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aDecidedRecordGivesItsDecision() {
    assertThat(verdict("{\"payload\":{\"decision\":\"x\"},\"policy\":\"p\",\"decision\":\"allow\",\"outcome\":[]}"))
        .isEqualTo(new EvalRecords.Verdict(Optional.of("allow"), Optional.empty()));
  }

  @Test
  void aFailedRecordGivesItsErrorsKind() {
    assertThat(verdict("{\"error\":{\"message\":\"m\",\"kind\":\"conflict\"},\"policy\":\"p\",\"decision\":\"deny\"}"))
        .isEqualTo(new EvalRecords.Verdict(Optional.empty(), Optional.of("conflict")));
    assertThat(verdict("{\"error\":{\"message\":\"m\"},\"policy\":\"p\"}").errorKind()).contains("");
  }

  @Test
  void bytesThatArentARecordDecideNothing() {
    EvalRecords.Verdict nothing = new EvalRecords.Verdict(Optional.empty(), Optional.empty());

    assertThat(verdict("[]")).isEqualTo(nothing);
    assertThat(verdict("{\"decision\":")).isEqualTo(nothing);
    assertThat(verdict("")).isEqualTo(nothing);
  }

  @Test
  void nullIsRefusedByName() {
    assertThatThrownBy(() -> EvalRecords.verdict(null)).hasMessage("record");
  }
}
