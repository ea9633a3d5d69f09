import Spec
public enum TimelineModule {}
