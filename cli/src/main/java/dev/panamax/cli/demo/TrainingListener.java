package dev.panamax.cli.demo;

/** Told of each training step's loss and of each validation accuracy measured (the progress bar). */
interface TrainingListener {
    void stepDone(int step, double loss);

    void evaluated(int step, double accuracy);

    TrainingListener NONE = new TrainingListener() {
        @Override
        public void stepDone(int step, double loss) {}

        @Override
        public void evaluated(int step, double accuracy) {}
    };
}
